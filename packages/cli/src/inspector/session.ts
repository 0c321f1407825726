import type { Root, Transport } from "mcpkit";
import type { Client, ServerDescription } from "mcpkit/client";
import type { StdioClientTransport } from "mcpkit/stdio";
import { Asks } from "./asks.js";
import { AuthTrace } from "./auth-trace.js";
import type { LogEntry, NetworkEntry } from "./contract/entries.js";
import type {
  ConnectionState,
  Diagnosis,
  PageEvent,
  PageTask,
  Pings,
  ProtocolChoice,
  Status,
  TransportKind,
} from "./contract/events.js";
import { OriginCredentials } from "./credentials.js";
import { Doctor, doctorTimeout } from "./diagnosis.js";
import { listenForChanges } from "./listen-changes.js";
import { ProtocolLog } from "./protocol-log.js";
import { ServerWatch } from "./server-watch.js";
import { makeClient } from "./session-client.js";
import { makeTransport, newSignIn } from "./session-transport.js";
import { SignInFlow } from "./sign-in.js";
import { describeTarget, pageTarget, type Target } from "./target.js";
import { tapTransport } from "./transport-tap.js";

export type { LogEntry, PageEvent, Pings, Status };

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

/** What a reconnection changes: the era, the target, the headers given for an HTTP target's origin, the timeouts. */
export interface ConnectChange {
  protocol?: ProtocolChoice;
  target?: Target;
  headers?: { set: Record<string, string>; remove?: readonly string[] };
  timeouts?: Partial<Timeouts>;
}

/** The request timeout and the liveness pings' interval, ms (0: none). */
export interface Timeouts {
  timeoutMs: number;
  pingIntervalMs: number;
}

const LIMIT = { network: 1000, logs: 2000, stderrTail: 20 };

/**
 * The inspected server, as the page sees it: one mcpkit Client (its public API only) over
 * a transport whose every message is recorded, the HTTP exchanges under it, the server's
 * logs, and the questions (elicitation, sampling) waiting for the person.
 */
export class InspectorSession {
  /** The target of the command line: its own headers and variables are given for it alone. */
  readonly given: Target;
  target: Target;
  protocol: ProtocolChoice;
  status: Status = "disconnected";
  error: string | undefined;
  description: ServerDescription | undefined;
  roots: Root[];
  readonly protocolLog = new ProtocolLog();
  readonly network: NetworkEntry[] = [];
  readonly logs: LogEntry[] = [];
  readonly asks: Asks;
  /** Tasks this inspector started or listed, by id. */
  readonly tasks = new Map<string, PageTask>();
  /**
   * Headers and sign-ins, each for the origin it was given for. A sign-in outlives a
   * reconnection (in another era, or after the server went away).
   */
  readonly credentials = new OriginCredentials(newSignIn);
  /** The sign-ins' steps, request and answer, for the authorization view. */
  readonly authTrace = new AuthTrace((step) => this.emit({ type: "auth", step }));
  /** The doctor, run where a connection failed: its steps are part of the state. */
  readonly doctor = new Doctor(() => this.emit(this.state()));
  private current:
    | { client: Client; transport: Transport; raw: Transport & { mode?: string }; pid?: number | undefined }
    | undefined;
  /** The last lines a stdio server wrote to stderr on this connection: why it failed, once it did. */
  private stderrTail: string[] = [];
  private readonly signIn: SignInFlow;
  private readonly options: SessionOptions;
  private generation = 0;
  /** Pings an HTTP server while connected and a page is open. */
  private readonly watch: ServerWatch;
  /** The command line's, until the page changes them. */
  private timeouts: Timeouts;

  constructor(options: SessionOptions) {
    this.options = options;
    this.given = options.target;
    this.target = options.target;
    if (options.target.kind === "http") this.credentials.give(options.target.url, options.target.headers);
    this.protocol = options.protocol;
    this.roots = options.roots;
    this.timeouts = { timeoutMs: options.timeoutMs, pingIntervalMs: options.pingIntervalMs };
    this.asks = new Asks((asks) => this.emit({ type: "asks", asks }));
    this.watch = new ServerWatch({
      connected: () => this.status === "connected",
      answered: (pings) => this.emit({ type: "pings", pings }),
      lost: (reason, error) => {
        this.warn(`A ping got no answer: ${error instanceof Error ? error.message : String(error)}`);
        this.lose(reason);
      },
    });
    this.signIn = new SignInFlow({
      status: () => this.status,
      setStatus: (status, error) => this.setStatus(status, error),
      lose: (reason) => this.lose(reason),
    });
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
      auth: this.authTrace.steps,
    };
  }

  state(): ConnectionState & { type: "state" } {
    const client = this.current?.client;
    return {
      type: "state",
      status: this.status,
      ...(this.error !== undefined && { error: this.error }),
      target: pageTarget(this.target, this.credentials),
      targetLabel: describeTarget(this.target),
      allowSpawn: this.options.allowSpawn,
      protocolChoice: this.protocol,
      ...(this.description && { description: this.description }),
      ...(client?.protocolEra && { era: client.protocolEra }),
      ...(client?.protocolVersion && { revision: client.protocolVersion }),
      transport: this.transportKind(),
      ...(this.current?.transport.sessionId && { sessionId: this.current.transport.sessionId }),
      ...(this.current?.pid !== undefined && { pid: this.current.pid }),
      ...(this.isDown() && this.stderrTail.length > 0 && { stderr: this.stderrTail }),
      ...(client && { clientCapabilities: client.capabilities }),
      ...(this.signIn.url && { signInUrl: this.signIn.url }),
      roots: this.roots,
      timeoutMs: this.timeouts.timeoutMs,
      pingIntervalMs: this.timeouts.pingIntervalMs,
      ...(this.watch.pings && { pings: this.watch.pings }),
      ...(this.doctor.diagnosis && { diagnosis: this.doctor.diagnosis }),
    };
  }

  /** A page opened, or the last one closed: pings run only while one is open. */
  setPageOpen(open: boolean): void {
    this.watch.setPageOpen(open);
  }

  /**
   * (Re)connects, after closing the connection there was: a stdio server is started anew.
   * An HTTP target's headers are those held for its origin, after `headers` changed them.
   */
  async connect(change: ConnectChange = {}): Promise<void> {
    await this.disconnect();
    if (change.protocol) this.protocol = change.protocol;
    if (change.timeouts) this.timeouts = { ...this.timeouts, ...change.timeouts };
    const target = change.target ?? this.target;
    if (target.kind === "http") {
      if (change.headers) this.credentials.give(target.url, change.headers.set, change.headers.remove);
      this.target = { kind: "http", url: target.url, headers: this.credentials.headersFor(target.url) };
    } else this.target = target;
    const generation = ++this.generation;
    const mine = () => generation === this.generation;
    this.protocolLog.begin(describeTarget(this.target));
    this.stderrTail = [];
    this.doctor.clear();
    this.setStatus("connecting");
    let client: Client | undefined;
    try {
      client = await this.makeClient(mine);
      const raw = await this.makeTransport(mine);
      if (!mine()) return;
      const transport = tapTransport(raw, (dir, value) => {
        for (const entry of this.protocolLog.record(dir, value)) this.emit({ type: "message", entry });
      });
      this.current = { client, transport, raw };
      const connecting = client.connect(transport);
      // connect() starts the transport before its first await: a stdio server's process exists now.
      if ("stderr" in raw) {
        const stdio = raw as StdioClientTransport;
        this.current.pid = stdio.pid;
        this.keepStderr(stdio, mine);
      }
      this.description = await connecting;
      if (!mine()) return;
      if (this.target.kind === "http" && this.timeouts.pingIntervalMs > 0)
        this.watch.start(client, this.timeouts, mine);
      this.setStatus("connected");
      if (client.protocolEra === "modern")
        listenForChanges(client, {
          live: () => mine() && client?.isConnected === true,
          stale: () => this.emit({ type: "lists-stale" }),
          check: () => this.watch.check(),
          warn: (message) => this.warn(message),
        }).catch((error: unknown) =>
          this.warn(`Listening for list changes stopped: ${error instanceof Error ? error.message : String(error)}`),
        );
    } catch (error) {
      if (!mine()) return;
      this.setStatus("failed", error instanceof Error ? error.message : String(error));
      await client?.close().catch(() => undefined);
      // Why, step by step: the doctor reaches the same target as a client would, anew.
      if (mine()) this.diagnose().catch((e: unknown) => this.warn(`The doctor failed: ${String(e)}`));
    }
  }

  /** Closes the connection; `reason` is why, when it was lost rather than closed on request. */
  async disconnect(reason?: string): Promise<void> {
    this.generation++;
    this.watch.stop();
    const current = this.current;
    this.current = undefined;
    this.description = undefined;
    this.signIn.abandon();
    this.asks.clear(reason ?? "The inspector closed the connection");
    if (current) {
      // Said first: closing may wait on a server that no longer answers (a legacy session's DELETE).
      this.setStatus("disconnected", reason);
      await current.client.close().catch(() => undefined);
    }
  }

  /**
   * Runs the doctor on the connection's target (the command line's, or one the page may
   * reach: page-target.ts decided that before it became the target), never another. Its
   * steps come in the state as they are decided; undefined when a reconnection replaced it.
   */
  diagnose(): Promise<Diagnosis | undefined> {
    return this.doctor.run(this.target, doctorTimeout(this.timeouts.timeoutMs));
  }

  /** The browser came back to the OAuth callback: false when no sign-in waits for it. */
  finishSignIn(callback: URL): boolean {
    const waited = this.signIn.finish(callback);
    if (waited) this.authTrace.callback(callback);
    return waited;
  }

  /** Replaces the roots offered to the server (a legacy server is told at once). */
  setRoots(roots: Root[]): void {
    this.roots = roots;
    this.current?.client.setRoots(roots);
    this.emit(this.state());
  }

  noteTask(task: PageTask): void {
    this.tasks.set(task.taskId, task);
    this.emit({ type: "task", task });
  }

  emit(event: PageEvent): void {
    this.options.emit(event);
  }

  /** Over HTTP, what the client settled on: Streamable HTTP, or the 2024-11-05 HTTP+SSE it fell back to. */
  private transportKind(): TransportKind {
    if (this.target.kind === "stdio") return "stdio";
    return this.current?.raw.mode === "sse" ? "http+sse" : "streamable-http";
  }

  private isDown(): boolean {
    return this.status === "failed" || this.status === "disconnected";
  }

  private setStatus(status: Status, error?: string): void {
    this.status = status;
    this.error = error;
    this.watch.update();
    this.emit(this.state());
  }

  private makeClient(mine: () => boolean): Promise<Client> {
    return makeClient({
      protocol: this.protocol,
      timeoutMs: this.timeouts.timeoutMs,
      roots: this.roots,
      asks: this.asks,
      mine,
      closed: (reason) => {
        this.watch.stop();
        this.asks.clear("The connection closed");
        this.setStatus(
          this.status === "connected" || this.status === "connecting" ? "disconnected" : this.status,
          reason?.message ?? this.error,
        );
      },
      renewed: (description) => {
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
      log: (entry) => this.log(entry),
      warn: (message) => this.warn(message),
      emit: (event) => this.emit(event),
      noteTask: (task) => this.noteTask(task),
    });
  }

  private makeTransport(mine: () => boolean): Promise<Transport> {
    const seen = new WeakSet<NetworkEntry>();
    return makeTransport(this.target, {
      mine,
      credentials: this.credentials,
      authTrace: this.authTrace,
      redirectUri: this.options.redirectUri,
      network: (entry) => {
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
          this.watch.check();
      },
      askToSignIn: (url) => {
        this.authTrace.authorize(url);
        return this.signIn.ask(url);
      },
      signInEnded: (error) => this.signIn.ended(error, mine),
      transportError: (message) => this.log({ at: Date.now(), level: "warning", logger: "transport", data: message }),
    });
  }

  private warn(message: string): void {
    this.log({ at: Date.now(), level: "warning", logger: "mcpkit inspector", data: message });
  }

  /** The connection is lost for `reason`: closed, and the page told why. */
  private lose(reason: string): void {
    void this.disconnect(reason).catch((error: unknown) => this.warn(`Disconnecting failed: ${String(error)}`));
  }

  /**
   * A stdio server's stderr, line by line, into the log pane, and its last lines kept: a
   * server that crashes says why there, and its last words may come after its exit.
   */
  private keepStderr(transport: StdioClientTransport, mine: () => boolean): void {
    transport.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (!mine()) return;
      const lines = chunk.split("\n").filter(Boolean);
      this.stderrTail = [...this.stderrTail, ...lines].slice(-LIMIT.stderrTail);
      for (const line of lines) this.log({ at: Date.now(), level: "stderr", data: line });
      if (this.isDown()) this.emit(this.state());
    });
  }

  private log(entry: LogEntry): void {
    this.logs.push(entry);
    if (this.logs.length > LIMIT.logs) this.logs.shift();
    this.emit({ type: "log", entry });
  }
}
