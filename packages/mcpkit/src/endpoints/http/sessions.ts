import { randomBytes } from "node:crypto";
import type { McpServer } from "../../server/server.js";
import {
  HttpSessionTransport,
  type SessionTransportOptions,
} from "../../transports/streamable-http/server/session-transport.js";
import { type AdmissionLimits, admitSession, type SessionFacts } from "./session-admission.js";

/** A session id: 32 bytes from a CSPRNG, base64url (visible ASCII, lifecycle §Session Management). */
const newSessionId = () => randomBytes(32).toString("base64url");

interface Entry {
  /** A session is its transport: closing the transport ends the server session with it. */
  transport: HttpSessionTransport;
  /** Who opened it: later requests must come from the same principal. */
  principal: string | undefined;
  /** Whom it counts against (session-admission.ts). */
  client: string | undefined;
}

export interface SessionTableOptions extends AdmissionLimits {
  idleTimeoutMs: number;
  transport: Omit<SessionTransportOptions, "onClosed">;
}

/**
 * The legacy sessions of one Streamable HTTP endpoint (transports §Session Management):
 * opened by initialize, found by id for their own principal only, ended by DELETE, by the
 * idle sweep or by close().
 */
export class SessionTable {
  private readonly entries = new Map<string, Entry>();
  private readonly server: McpServer;
  private readonly options: SessionTableOptions;
  private readonly transportOptions: SessionTransportOptions;
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(server: McpServer, options: SessionTableOptions) {
    this.server = server;
    this.options = options;
    // However a session ends (DELETE, idle sweep, server.close()), it is forgotten.
    this.transportOptions = { ...options.transport, onClosed: (id) => this.entries.delete(id) };
    const idle = options.idleTimeoutMs;
    this.sweep = setInterval(() => this.closeIdle(), Math.min(idle, 60_000));
    this.sweep.unref?.();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Makes room for one more session of `client`, ending unused sessions if a cap is
   * reached; says why when there is no room.
   */
  admit(client: string | undefined): string | undefined {
    const verdict = admitSession(this.entries, factsOf, client, this.options);
    if ("refuse" in verdict) return verdict.refuse;
    for (const id of verdict.evict) void this.end(id);
    return undefined;
  }

  /** A session of this caller: another principal's session id is as unknown as a made-up one. */
  find(id: string, principal: string | undefined): HttpSessionTransport | undefined {
    const entry = this.entries.get(id);
    return entry && entry.principal === principal ? entry.transport : undefined;
  }

  /** Opens a session for `principal`; the server serves it in the legacy era only. */
  async open(principal: string | undefined, client?: string): Promise<{ id: string; transport: HttpSessionTransport }> {
    const id = newSessionId();
    const transport = new HttpSessionTransport(id, this.transportOptions);
    await this.server.connect(transport, { era: "legacy" });
    this.entries.set(id, { transport, principal, client });
    return { id, transport };
  }

  async end(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await entry.transport.close();
  }

  /** Waits up to `drainMs` for requests in progress, then ends every session. */
  async closeAll(drainMs: number): Promise<void> {
    clearInterval(this.sweep);
    const deadline = Date.now() + drainMs;
    while (Date.now() < deadline && [...this.entries.values()].some((e) => e.transport.answering)) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await Promise.all([...this.entries.keys()].map((id) => this.end(id)));
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.options.idleTimeoutMs;
    for (const [id, { transport }] of this.entries) {
      if (transport.lastActivity < cutoff && !transport.busy) void this.end(id);
    }
  }
}

const factsOf = ({ transport, client }: Entry): SessionFacts => ({
  client,
  unused: transport.requestCount <= 1 && !transport.busy,
  lastActivity: transport.lastActivity,
});
