import type { OptionTable, OptionValues } from "@mcpkit/servers/options";
import type { McpServer, ServerOptions } from "mcpkit/server";

/** What every node of a cluster must share: given to the server a node makes. */
export type Shared = Pick<ServerOptions, "eventBus" | "requestStateKey" | "tasks">;

/** A built-in server, made ready to serve, and how to release what it holds. */
export interface Served {
  server: McpServer;
  /** What is being served, in a few lines for the terminal. */
  summary?: string;
  /** Resolves with why, when the server cannot go on (a proxied server exited). */
  ended?: Promise<string>;
  /** Over HTTP: how long a session may stay idle when --idle-timeout does not say (default 30 minutes). */
  idleTimeoutMs?: number;
  /** Over HTTP: asked before a session opens; a refusal is answered 503 with Retry-After. */
  admitSession?: () => { message: string; retryAfterSeconds: number } | undefined;
  close(): Promise<void>;
}

/** What `mcpkit serve` hands the server it makes, beside the server's own options. */
export interface ServeContext {
  /** The operands after the server's name (the proxy's target). */
  operands: string[];
  /** The cluster's shared pieces (empty without --redis). */
  shared: Shared;
  /** Whether this is one node of a cluster (--redis): `shared` then holds the cluster's bus and key. */
  cluster: boolean;
  /** Whether it is served over HTTP (--port); else over stdio, where stdout carries the protocol. */
  http: boolean;
  /**
   * With --authorization-server: where people sign in ("dev", "oidc", or a preset's name
   * such as "github"). Tools then find each person's upstream token in `ctx.auth.upstream`.
   */
  upstream?: string;
}

/**
 * One built-in server as `mcpkit serve NAME` knows it: its options (described in
 * @mcpkit/servers, where serve makes its flags from), and how their values make it. A
 * module of this shape is all `serve` loads for the server it runs, so one server's
 * dependencies never slow another's start.
 */
export interface ServerFlags<T extends OptionTable = OptionTable> {
  description: string;
  /** The server's own options, beside the ones every server takes. */
  options: T;
  /** Describes the operands, for a server that takes some after its name. */
  operands?: string;
  /** What a non-local --host without authentication would expose: warned about. */
  exposes?: string;
  /**
   * Whether the server can run as a node of a Redis cluster (--redis): true, or why it
   * cannot (said when --redis is given). What one command line cannot do as a cluster
   * (a workspace writing its sample database) is refused by `check`.
   */
  cluster: true | { refused: string };
  /** The scopes its tools need at an identity provider preset people sign in with (--authorization-server), by preset. */
  upstreamScopes?: Partial<Record<string, string[]>>;
  /**
   * Checks the server's options against the rest of the command line before anything
   * starts (a cluster joined, a port opened): throws a UsageError for what cannot work.
   */
  check?(values: OptionValues<T>, context: { cluster: boolean; upstream?: string }): void;
  /** Makes the server from its options' values, read from the command line by their descriptions. */
  create(values: OptionValues<T>, context: ServeContext): Promise<Served>;
}

/** Declares a server's flags, typing `check` and `create` by its option table. */
export const defineFlags = <T extends OptionTable>(flags: ServerFlags<T>): ServerFlags<T> => flags;
