import type { LogLevel, Root, Transport, TransportSink } from "mcpkit";
import type { DPoPKey } from "mcpkit/auth";
import type {
  Client,
  ClientRequestContext,
  ServerDescription,
  SubscriptionEnd,
  SubscriptionFilter,
  WireTask,
} from "mcpkit/client";
import type { StdioClientTransport } from "mcpkit/stdio";
import { VERSION } from "../version.js";
import { type Ask, Asks } from "./asks.js";
import { OriginCredentials, type SignInStore } from "./credentials.js";
import { type Liveness, lostReason, watchLiveness } from "./liveness.js";
import { type NetworkEntry, recordingFetch } from "./network-log.js";
import { ProtocolLog } from "./protocol-log.js";
import { describeTarget, type PageTarget, type ProtocolChoice, revisionFor, type Target } from "./target.js";

/** MCP Apps (ext-apps): the extension the inspector declares, so servers show it their app tools. */
const APPS_EXTENSION = "io.modelcontextprotocol/ui";
const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** What the page is told, as one JSON object per server-sent event. */
export type PageEvent = { type: string } & Record<string, unknown>;

export type Status = "connecting" | "signing-in" | "connected" | "disconnected" | "failed";

/** A server log message (notifications/message), or a line a stdio server wrote to stderr. */
export interface LogEntry {
  at: number;
  level: LogLevel | "stderr";
  logger?: string;
  data: unknown;
}

export interface SessionOptions {
  target: Target;
  protocol: ProtocolChoice;
  /** Request timeout, ms (0: none). */
  timeoutMs: number;
  /** The inspector's OAuth callback URL, known once it listens. */
  redirectUri: () => string;
  /** --allow-spawn: the programs the page may start (told to the page, checked in page-target.ts). */
  allowSpawn: readonly string[];
  /** The roots offered at first (the page edits them). */
  roots: Root[];
  /** How often an HTTP server is pinged while a page is open, ms (0: never). */
  pingIntervalMs: number;
  emit: (event: PageEvent) => void;
}

/** The pings of the current connection, as the page shows them. */
export interface Pings {
  intervalMs: number;
  answered: number;
  /** When the last answer came, ms since the epoch. */
  at?: number;
}

const LIMIT = { network: 1000, logs: 2000 };

/** A listen stream that ended is opened again after this long, doubling up to maxMs. */
const LISTEN_RETRY = { firstMs: 500, maxMs: 30_000 };
const METHOD_NOT_FOUND = -32601;
/** A liveness ping unanswered this long means the server is gone (the request timeout, if shorter). */
const PING_TIMEOUT_MS = 10_000;

/**
 * A sign-in's store: tokens in memory, and a DPoP key of P-256 for ES256, the algorithm
 * mcpkit's OAuthClient prefers when a server lists it; not extractable, as the tokens bound
 * to it live in memory only.
 */
async function newSignIn(): Promise<SignInStore> {
  const { memoryStorage } = await import("mcpkit/auth");
  const keyPair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const dpop: DPoPKey = { alg: "ES256", keyPair };
  return { storage: memoryStorage(), dpop };
}

/** What the page is told of a target: a header's name, never its value; a command, never its variables. */
function pageTarget(target: Target, credentials: OriginCredentials): PageTarget {
  if (target.kind === "http") return { kind: "http", url: target.url, headers: credentials.headerNames(target.url) };
  return { kind: "stdio", command: target.command, args: target.args, ...(target.cwd && { cwd: target.cwd }) };
}

/**
 * The inspected server, as the page sees it: one mcpkit Client (its public API only) over
 * a transport whose every message is recorded, the HTTP exchanges under it, the server's
 * logs, and the questions (elicitation, sampling) waiting for the person.
 */
/** What a reconnection changes: the era, the target, the headers given for an HTTP target's origin. */
export interface ConnectChange {
  protocol?: ProtocolChoice;
  target?: Target;
  headers?: { set: Record<string, string>; remove?: readonly string[] };
}

export class InspectorSession {
  /** The target of the command line: its own headers and variables are given for it alone. */
  readonly given: Target;
  target: Target;
  protocol: ProtocolChoice;
  status: Status = "disconnected";
  error: string | undefined;
  description: ServerDescription | undefined;
  signInUrl: string | undefined;
  roots: Root[];
  readonly protocolLog = new ProtocolLog();
  readonly network: NetworkEntry[] = [];
  readonly logs: LogEntry[] = [];
  readonly asks: Asks;
  /** Tasks this inspector started or listed, by id. */
  readonly tasks = new Map<string, WireTask>();
  private current: { client: Client; transport: Transport; pid?: number | undefined } | undefined;
  /**
   * Headers and sign-ins, each for the origin it was given for. A sign-in outlives a
   * reconnection (in another era, or after the server went away).
   */
  readonly credentials = new OriginCredentials(newSignIn);
  /** The sign-in the page shows a link for; `from` is the status it interrupted. */
  private signIn: { resolve: (url: URL) => void; reject: (error: Error) => void; from: Status } | undefined;
  /**
   * A sign-in the browser came back from, its tokens not yet there: the status it
   * interrupted, which it returns to once they are (see signInEnded).
   */
  private completing: Status | undefined;
  private readonly options: SessionOptions;
  private generation = 0;
  /** Pings an HTTP server while connected (see watchServer). */
  private liveness: { monitor: Liveness; pings: Pings } | undefined;
  /** Whether a page is open: with nobody to tell, nothing is pinged. */
  private pageOpen = false;

  constructor(options: SessionOptions) {
    this.options = options;
    this.given = options.target;
    this.target = options.target;
    if (options.target.kind === "http") this.credentials.give(options.target.url, options.target.headers);
    this.protocol = options.protocol;
    this.roots = options.roots;
    this.asks = new Asks((asks) => this.emit({ type: "asks", asks }));
  }

  /** --allow-spawn: the programs the page may start. */
  get allowSpawn(): readonly string[] {
    return this.options.allowSpawn;
  }

  get client(): Client {
    const client = this.current?.client;
    if (!client?.isConnected) throw new Error("Not connected to the server: connect first");
    return client;
  }

  /** What a page that just opened needs: the state, and what was recorded so far. */
  snapshot(): PageEvent {
    return {
      ...this.state(),
      type: "snapshot",
      protocol: this.protocolLog.entries,
      network: this.network,
      logs: this.logs,
      asks: this.asks.pending,
      tasks: [...this.tasks.values()],
    };
  }

  state(): PageEvent {
    const client = this.current?.client;
    return {
      type: "state",
      status: this.status,
      error: this.error,
      target: pageTarget(this.target, this.credentials),
      targetLabel: describeTarget(this.target),
      allowSpawn: this.options.allowSpawn,
      protocolChoice: this.protocol,
      description: this.description,
      era: client?.protocolEra,
      revision: client?.protocolVersion,
      transport: this.target.kind === "http" ? "streamable-http" : "stdio",
      sessionId: this.current?.transport.sessionId,
      pid: this.current?.pid,
      clientCapabilities: client?.capabilities,
      signInUrl: this.signInUrl,
      roots: this.roots,
      pings: this.liveness?.pings,
    };
  }

  /** A page opened, or the last one closed: pings run only while one is open. */
  setPageOpen(open: boolean): void {
    this.pageOpen = open;
    this.updateWatch();
  }

  /**
   * (Re)connects, after closing the connection there was: a stdio server is started anew.
   * An HTTP target's headers are those held for its origin, after `headers` changed them.
   */
  async connect(change: ConnectChange = {}): Promise<void> {
    await this.disconnect();
    if (change.protocol) this.protocol = change.protocol;
    const target = change.target ?? this.target;
    if (target.kind === "http") {
      if (change.headers) this.credentials.give(target.url, change.headers.set, change.headers.remove);
      this.target = { kind: "http", url: target.url, headers: this.credentials.headersFor(target.url) };
    } else this.target = target;
    const generation = ++this.generation;
    const mine = () => generation === this.generation;
    this.protocolLog.reset();
    this.setStatus("connecting");
    let client: Client | undefined;
    try {
      client = await this.makeClient(mine);
      const raw = await this.makeTransport(mine);
      if (!mine()) return;
      const transport = this.tap(raw);
      this.current = { client, transport };
      const connecting = client.connect(transport);
      // connect() starts the transport before its first await: a stdio server's process exists now.
      if ("stderr" in raw) {
        const stdio = raw as StdioClientTransport;
        this.current.pid = stdio.pid;
        this.keepStderr(stdio, mine);
      }
      this.description = await connecting;
      if (!mine()) return;
      if (this.target.kind === "http" && this.options.pingIntervalMs > 0) this.watchServer(client, mine);
      this.setStatus("connected");
      if (client.protocolEra === "modern")
        this.listenForChanges(client, mine).catch((error: unknown) =>
          this.warn(`Listening for list changes stopped: ${error instanceof Error ? error.message : String(error)}`),
        );
    } catch (error) {
      if (!mine()) return;
      this.setStatus("failed", error instanceof Error ? error.message : String(error));
      await client?.close().catch(() => undefined);
    }
  }

  /** Closes the connection; `reason` is why, when it was lost rather than closed on request. */
  async disconnect(reason?: string): Promise<void> {
    this.generation++;
    this.unwatch();
    const current = this.current;
    this.current = undefined;
    this.description = undefined;
    this.signIn?.reject(new Error("The sign-in was abandoned: the inspector reconnected"));
    this.signIn = undefined;
    this.signInUrl = undefined;
    this.completing = undefined;
    this.asks.clear(reason ?? "The inspector closed the connection");
    if (current) {
      // Said first: closing may wait on a server that no longer answers (a legacy session's DELETE).
      this.setStatus("disconnected", reason);
      await current.client.close().catch(() => undefined);
    }
  }

  /**
   * The authorization server sent the browser back to the inspector's callback: connecting
   * until the code is exchanged for tokens (signInEnded says how that went).
   */
  finishSignIn(callback: URL): boolean {
    const pending = this.signIn;
    if (!pending) return false;
    this.signIn = undefined;
    this.signInUrl = undefined;
    this.completing = pending.from;
    this.setStatus("connecting");
    pending.resolve(callback);
    return true;
  }

  /** Replaces the roots offered to the server (a legacy server is told at once). */
  setRoots(roots: Root[]): void {
    this.roots = roots;
    this.current?.client.setRoots(roots);
    this.emit(this.state());
  }

  noteTask(task: WireTask): void {
    this.tasks.set(task.taskId, task);
    this.emit({ type: "task", task });
  }

  emit(event: PageEvent): void {
    this.options.emit(event);
  }

  private setStatus(status: Status, error?: string): void {
    this.status = status;
    this.error = error;
    this.updateWatch();
    this.emit(this.state());
  }

  /**
   * Over HTTP nothing tells that the server went away until a request fails: the server
   * is pinged while a page is open, and at once when one of its streams ends or a request
   * gets no HTTP answer (makeTransport, listenForChanges). One that stops answering is
   * disconnected, with the reason, as an exited stdio server is.
   */
  private watchServer(client: Client, mine: () => boolean): void {
    const pings: Pings = { intervalMs: this.options.pingIntervalMs, answered: 0 };
    const timeoutMs = Math.min(PING_TIMEOUT_MS, this.options.timeoutMs || PING_TIMEOUT_MS);
    const monitor = watchLiveness({
      intervalMs: pings.intervalMs,
      ping: () => client.ping({ timeoutMs }),
      onAnswer: () => {
        if (!mine()) return;
        pings.answered++;
        pings.at = Date.now();
        this.emit({ type: "pings", pings });
      },
      onLost: (error) => {
        // A ping that waited on a sign-in says nothing of the server; the sign-in goes on.
        if (!mine() || this.status !== "connected") return;
        this.warn(`A ping got no answer: ${error instanceof Error ? error.message : String(error)}`);
        this.lose(lostReason(error));
      },
    });
    this.liveness = { monitor, pings };
  }

  private updateWatch(): void {
    this.liveness?.monitor.watch(this.pageOpen && this.status === "connected");
  }

  private unwatch(): void {
    this.liveness?.monitor.stop();
    this.liveness = undefined;
  }

  /**
   * The client modules are loaded here, not when the inspector starts: its URL is printed
   * (and the page served) before any of them is read.
   */
  private async makeClient(mine: () => boolean): Promise<Client> {
    const { Client } = await import("mcpkit/client");
    const ask =
      (method: Ask["method"]) =>
      (params: object, ctx: ClientRequestContext): Promise<never> =>
        this.asks.ask(
          method,
          params,
          ctx.inputKey === undefined
            ? { kind: "request", key: String(ctx.requestId) }
            : { kind: "input", key: ctx.inputKey },
          ctx.signal,
        ) as Promise<never>;
    const protocolVersion = revisionFor(this.protocol);
    const client = new Client({
      name: "mcpkit-inspector",
      title: "mcpkit inspector",
      version: VERSION,
      ...(protocolVersion && { protocolVersion }),
      timeoutMs: this.options.timeoutMs,
      // Declared from the start, so roots can be edited in the page at any time.
      roots: this.roots,
      capabilities: {
        elicitation: { form: {}, url: {} },
        extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
      },
      elicitation: ask("elicitation/create"),
      sampling: ask("sampling/createMessage"),
      onClose: (reason) => {
        if (!mine()) return;
        this.unwatch();
        this.asks.clear("The connection closed");
        this.setStatus(
          this.status === "connected" || this.status === "connecting" ? "disconnected" : this.status,
          reason?.message ?? this.error,
        );
      },
      onError: (error) => {
        if (mine()) this.warn(String(error));
      },
      // The server forgot the session (it restarted, or ended it) and the Client began a
      // new one: its id, and the server's info and capabilities, which may have changed.
      onSessionRenewed: (description) => {
        if (!mine()) return;
        this.description = description;
        this.log({
          at: Date.now(),
          level: "info",
          logger: "mcpkit inspector",
          data: `The server no longer knew the session: a new one began (${this.current?.transport.sessionId ?? "no id"})`,
        });
        this.emit(this.state());
        // Its lists may differ too: the page reads them anew.
        this.emit({ type: "lists-stale" });
      },
    });
    client.on("notifications/message", (params) =>
      this.log({ at: Date.now(), level: params.level as LogLevel, logger: params.logger as string, data: params.data }),
    );
    for (const method of [
      "notifications/resources/updated",
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
      "notifications/prompts/list_changed",
      "notifications/elicitation/complete",
    ])
      client.on(method, (params) => this.emit({ type: "notification", method, params }));
    client.on("notifications/tasks/status", (params) => {
      if (typeof params.taskId === "string") this.noteTask(params as unknown as WireTask);
    });
    return client;
  }

  private async makeTransport(mine: () => boolean): Promise<Transport> {
    const target = this.target;
    if (target.kind === "stdio") {
      const { stdioClientTransport } = await import("mcpkit/stdio");
      return stdioClientTransport({
        command: target.command,
        args: target.args,
        env: target.env,
        ...(target.cwd && { cwd: target.cwd }),
        stderr: "pipe",
      });
    }
    const seen = new WeakSet<NetworkEntry>();
    const fetch = recordingFetch(
      (input, init) => globalThis.fetch(input, init),
      (entry) => {
        if (!mine()) return;
        // The same entry comes again as it changes (headers, then the end of its body).
        if (!seen.has(entry)) {
          seen.add(entry);
          this.network.push(entry);
          if (this.network.length > LIMIT.network) this.network.shift();
        }
        this.emit({ type: "http", entry });
        // A request that got no HTTP answer, or a GET stream (a legacy session's) that
        // ended: the server may be gone, which a ping tells at once.
        if (entry.error !== undefined || (entry.method === "GET" && entry.ended && !entry.cancelled))
          this.liveness?.monitor.check();
      },
    );
    const ownAuthorization = Object.keys(target.headers).some((name) => name.toLowerCase() === "authorization");
    const { streamableHttpClientTransport } = await import("mcpkit/http-client");
    const { OAuthClient } = await import("mcpkit/auth");
    const signIn = await this.credentials.signInFor(target.url);
    const auth = ownAuthorization
      ? undefined
      : new OAuthClient({
          serverUrl: target.url,
          clientName: "mcpkit inspector",
          redirectUri: this.options.redirectUri(),
          redirect: (url) => this.askToSignIn(url, mine),
          onSignInEnd: ({ error }) => this.signInEnded(error, mine),
          fetch: fetch as typeof globalThis.fetch,
          storage: signIn.storage,
          dpop: signIn.dpop,
        });
    return streamableHttpClientTransport(target.url, {
      headers: target.headers,
      fetch,
      ...(auth && { auth }),
      onError: (error) => {
        if (mine()) this.log({ at: Date.now(), level: "warning", logger: "transport", data: error.message });
      },
    });
  }

  /**
   * 2026-07-28 sends list changes only on a subscriptions/listen stream
   * (basic/patterns/subscriptions): one stays open for every list the server says changes,
   * and is opened again if it ends while connected (a server restarting, a dropped
   * stream), the lists read anew since changes may have been missed. The notifications
   * reach the client's `on()` listeners, hence the page, as in the legacy era.
   */
  private async listenForChanges(client: Client, mine: () => boolean): Promise<void> {
    const caps = client.serverCapabilities ?? {};
    const filter: SubscriptionFilter = {
      ...(caps.tools?.listChanged && { toolsListChanged: true }),
      ...(caps.prompts?.listChanged && { promptsListChanged: true }),
      ...(caps.resources?.listChanged && { resourcesListChanged: true }),
    };
    if (Object.keys(filter).length === 0) return;
    const live = () => mine() && client.isConnected;
    let delayMs = LISTEN_RETRY.firstMs;
    for (let opened = 0; live(); opened++) {
      const started = Date.now();
      let end: SubscriptionEnd;
      try {
        const subscription = await client.listen(filter, () => undefined);
        if (opened > 0 && live()) this.emit({ type: "lists-stale" });
        end = await subscription.closed;
      } catch (error) {
        end = { reason: "lost", error };
      }
      if (end.reason === "closed" || !live()) return;
      if ((end.error as { code?: unknown } | undefined)?.code === METHOD_NOT_FOUND) {
        this.warn("The server has no subscriptions/listen: list changes will not reach the page");
        return;
      }
      // The server may be gone, which a ping tells at once.
      this.liveness?.monitor.check();
      if (Date.now() - started > LISTEN_RETRY.maxMs) delayMs = LISTEN_RETRY.firstMs;
      this.warn(
        `The subscriptions/listen stream ${end.reason === "ended" ? "ended" : "was lost"}${
          end.error instanceof Error ? ` (${end.error.message})` : ""
        }; listening again in ${delayMs} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      delayMs = Math.min(delayMs * 2, LISTEN_RETRY.maxMs);
    }
  }

  private warn(message: string): void {
    this.log({ at: Date.now(), level: "warning", logger: "mcpkit inspector", data: message });
  }

  /**
   * basic/authorization: the page shows a sign-in link; the callback comes back to the
   * inspector. While connecting (the first request got 401) or once connected (a token
   * expired or was revoked, a tool needs another scope).
   */
  private askToSignIn(url: URL, mine: () => boolean): Promise<URL> {
    if (!mine()) return Promise.reject(new Error("The connection was replaced"));
    return new Promise<URL>((resolve, reject) => {
      this.signIn = { resolve, reject, from: this.status };
      this.signInUrl = url.href;
      this.setStatus("signing-in");
    });
  }

  /**
   * The sign-in is over (OAuthClient's onSignInEnd). One that interrupted a live
   * connection returns it to Connected, pings and all, with the tokens stored and the
   * requests that waited on them sent again; one that failed ends it, with the reason, as
   * nothing can reach the server without a token. A sign-in during connect() is left to
   * connect(), which goes on, or fails with the same error.
   */
  private signInEnded(error: unknown, mine: () => boolean): void {
    const from = this.completing;
    this.completing = undefined;
    if (!mine() || from !== "connected") return;
    if (error === undefined) {
      this.setStatus("connected");
      return;
    }
    const reason = `The sign-in failed: ${error instanceof Error ? error.message : String(error)}`;
    this.setStatus("disconnected", reason);
    // The requests that waited on the sign-in fail with its error first (promise callbacks
    // only): closed at once, they would say no more than "Connection closed".
    setImmediate(() => {
      if (mine()) this.lose(reason);
    });
  }

  /** The connection is lost for `reason`: closed, and the page told why. */
  private lose(reason: string): void {
    void this.disconnect(reason).catch((error: unknown) => this.warn(`Disconnecting failed: ${String(error)}`));
  }

  /** Every message through the transport, both ways, into the protocol log. */
  private tap(transport: Transport): Transport {
    const record = (dir: "in" | "out", value: unknown) => {
      for (const entry of this.protocolLog.record(dir, value)) this.emit({ type: "message", entry });
    };
    return {
      get binding() {
        return transport.binding;
      },
      get sessionId() {
        return transport.sessionId;
      },
      start: (sink: TransportSink) =>
        transport.start({
          message: (value, info) => {
            record("in", value);
            sink.message(value, info);
          },
          invalid: (error) => sink.invalid(error),
          close: (reason) => sink.close(reason),
        }),
      send: (message, options) => {
        record("out", message);
        transport.send(message, options);
      },
      ...(transport.unanswered && { unanswered: (id) => transport.unanswered?.(id) }),
      ...(transport.setProtocolVersion && { setProtocolVersion: (v) => transport.setProtocolVersion?.(v) }),
      close: () => transport.close(),
    };
  }

  /** A stdio server's stderr, line by line, into the log pane. */
  private keepStderr(transport: StdioClientTransport, mine: () => boolean): void {
    transport.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (!mine()) return;
      for (const line of chunk.split("\n").filter(Boolean)) this.log({ at: Date.now(), level: "stderr", data: line });
    });
  }

  private log(entry: LogEntry): void {
    this.logs.push(entry);
    if (this.logs.length > LIMIT.logs) this.logs.shift();
    this.emit({ type: "log", entry });
  }
}
