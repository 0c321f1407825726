import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  LogLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  Tool,
} from "mcpkit";
import type { SkillEntry } from "mcpkit/client";
import type { Reply } from "./entries.js";
import type { ConnectionState, Diagnosis, PageTask, ProtocolChoice } from "./events.js";
import type { GatewayHealthAnswer } from "./gateway.js";

/**
 * Everything the page can ask of the backend: one table, operation name → request body →
 * answer. The backend's handlers (../ops/) are typed from it, each one present; the page's
 * client (client.ts) takes a name from it and the body it names, so a misspelt operation or
 * a wrong body does not compile on either side. On the wire: `POST /api/<name>` with the
 * request as JSON, answered `{ value }` or `{ error }` (Answer).
 */
export interface Operations {
  /** (Re)connects: in another era, to another URL (with headers for it), or to a command --allow-spawn allows. */
  connect: Op<ConnectRequest, ConnectionState>;
  disconnect: Op<Empty, ConnectionState>;
  ping: Op<Empty, { ms: number }>;
  "tools/list": Op<Empty, Tool[]>;
  "resources/list": Op<Empty, Resource[]>;
  "resources/templates/list": Op<Empty, ResourceTemplate[]>;
  "prompts/list": Op<Empty, Prompt[]>;
  "tools/call": Op<ToolCallRequest, ToolCallOutcome>;
  /** Cancels a call the page started with a callId. */
  cancel: Op<{ callId: string }, { cancelled: boolean }>;
  "resources/read": Op<{ uri: string }, ReadResourceResult>;
  "resources/subscribe": Op<{ uri: string }, Empty>;
  "resources/unsubscribe": Op<{ uri: string }, Empty>;
  "completion/complete": Op<CompleteParams, CompleteResult>;
  "prompts/get": Op<{ name: string; arguments?: Record<string, string>; callId?: string }, GetPromptResult>;
  "logging/setLevel": Op<{ level: LogLevel }, Empty>;
  /** Replaces the roots offered to the server. */
  roots: Op<{ roots: Root[] }, { roots: Root[] }>;
  /** Answers a question of the server's (elicitation, sampling); false when it is gone. */
  answer: Op<{ id: number; reply: Reply }, { delivered: boolean }>;
  "tasks/list": Op<Empty, PageTask[]>;
  "tasks/get": Op<{ taskId: string }, PageTask>;
  "tasks/cancel": Op<{ taskId: string }, PageTask>;
  "tasks/result": Op<{ taskId: string }, CallToolResult>;
  "skills/list": Op<Empty, SkillEntry[]>;
  "skills/load": Op<{ uri: string; allowUnverified?: boolean }, { entry: SkillEntry; text: string }>;
  /** MCP Apps: registers a ui:// view to be framed from /views/<id>. */
  "app/open": Op<{ uri: string }, AppView>;
  /** Forgets the steps the authorization view shows. */
  "auth/clear": Op<Empty, Empty>;
  /** Forgets the sign-in held for the server's origin and connects again: a sign-in from the start. */
  "auth/restart": Op<Empty, ConnectionState>;
  /**
   * Runs the doctor on the connection's own target (the command line's, or the one the
   * connection panel set; never one the page names here) and answers its diagnosis, whose
   * steps also come in the state as they are decided. It never signs in.
   */
  doctor: Op<Empty, Diagnosis>;
  /** The connection as a client's configuration (secrets left out, as placeholders). */
  "config/export": Op<{ format: ConfigFormat }, ClientConfig>;
  /**
   * The calls, reads, prompts and completions made of this server as a test file for
   * `mcpkit test`, each expecting what came back then. The page downloads it: nothing is
   * written here. Secrets are left out.
   */
  "export/test-file": Op<Empty, Download>;
  /** The last connection's messages, from its first, as a recording for `mcpkit replay`; secrets left out. */
  "export/recording": Op<Empty, Download>;
  /** A gateway's upstreams (GET /healthz at the HTTP server's origin, no credentials sent), or why none. */
  "gateway/health": Op<Empty, GatewayHealthAnswer>;
}

/** A file the page offers as a download (the browser saves it; the inspector writes nothing). */
export interface Download {
  /** The name the browser suggests. */
  filename: string;
  mimeType: string;
  text: string;
  /** What the person should know of what the file leaves out (secrets by name, messages too large to keep). */
  notes: string[];
}

/** The clients whose configuration the page copies: .mcp.json's (Claude Code, Cursor), Claude Desktop's, VS Code's. */
export type ConfigFormat = "mcp.json" | "claude-desktop" | "vscode";

export interface ClientConfig {
  format: ConfigFormat;
  /** Where it goes. */
  file: string;
  /** The JSON to put there. */
  text: string;
  /** The secrets left out, each as the placeholder that stands for it and what to put there. */
  placeholders: { placeholder: string; for: string }[];
}

interface Op<Request, Response> {
  request: Request;
  response: Response;
}

/** A body with nothing in it. */
export type Empty = Record<string, never>;

export type OpName = keyof Operations;
export type RequestOf<N extends OpName> = Operations[N]["request"];
export type ResponseOf<N extends OpName> = Operations[N]["response"];

/** What an operation failed with: the server's JSON-RPC error (code, data), or the inspector's own refusal. */
export interface OpFailure {
  message: string;
  code?: number;
  data?: unknown;
}

/** The body of every answer of `POST /api/<name>`. */
export type Answer<T> = { value: T } | { error: OpFailure };

/** The header every API request carries the page's key in (../guard.ts). */
export const KEY_HEADER = "x-mcpkit-inspector-key";

export interface ConnectRequest {
  protocol?: ProtocolChoice;
  /** Another HTTP server. */
  url?: string;
  /** Headers for the URL's origin (a bearer token is an Authorization header); the names in removeHeaders are dropped. */
  headers?: Record<string, string>;
  removeHeaders?: string[];
  /** Another stdio server: a program --allow-spawn names, or the command line's own. Never an environment. */
  command?: string;
  args?: string[];
  /** Give up on a request after this long, ms (0: never). */
  timeoutMs?: number;
  /** How often to ping an HTTP server while a page is open, ms (0: never). */
  pingIntervalMs?: number;
}

export interface ToolCallRequest {
  name: string;
  arguments?: Record<string, unknown>;
  /** Set to cancel it later (cancel) and to receive its progress (a progress event with this id). */
  callId?: string;
  /** Run it as a task (the Tasks extension, or 2025-11-25's tasks). */
  asTask?: boolean;
}

export interface ToolCallOutcome {
  result: CallToolResult;
  /** The task it ran as. */
  taskId?: string;
  /** What is wrong with a result that breaks the tool's outputSchema (the result is still shown). */
  outputError?: string;
}

/** `_meta.ui` of an MCP Apps view, as the host reads it. */
export interface AppUi {
  csp?: Record<string, unknown>;
  permissions?: Record<string, unknown>;
  prefersBorder?: boolean;
}

export interface AppView {
  /** Where the page frames it from. */
  url: string;
  /** The Content-Security-Policy it is served under. */
  csp: string;
  ui: AppUi;
  mimeType?: string;
}
