import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { SessionMessage, SessionStore } from "../../server/session-store.js";
import type { LocalSessions } from "./session-entry.js";

/**
 * Between the nodes sharing a SessionStore: a client's message that belongs to a request
 * another node runs (the answer to its elicitation, sampling or roots request, or progress
 * on it) is passed to that node, and a cancellation to every node. A node's requests to
 * clients have ids `<node>.<n>` (ConnectionOptions.requestIdPrefix), which say whose they are.
 */
export class ClusterRelay {
  constructor(
    private readonly store: SessionStore,
    /** This node's name among those sharing the store. */
    private readonly node: string,
    private readonly local: LocalSessions,
  ) {}

  /**
   * Passes on what belongs elsewhere; resolves with what is left to handle here: the body,
   * the rest of a batch, or undefined when everything went elsewhere.
   */
  async forward(id: string, body: unknown): Promise<unknown> {
    if (!Array.isArray(body)) return (await this.forwardOne(id, body)) ? undefined : body;
    const rest: unknown[] = [];
    for (const message of body) if (!(await this.forwardOne(id, message))) rest.push(message);
    return rest.length === 0 ? undefined : rest.length === body.length ? body : rest;
  }

  /** True when the message went to another node only. */
  private async forwardOne(id: string, value: unknown): Promise<boolean> {
    if (typeof value !== "object" || value === null) return false;
    const message = value as JsonRpcMessage;
    const method = "method" in message ? message.method : undefined;
    if (method === "notifications/cancelled") {
      // The request may run on any node; it is handled here too.
      await this.store.relay({ id, kind: "message", from: this.node, message });
      return false;
    }
    const token =
      method === undefined
        ? (message as { id?: unknown }).id
        : method === "notifications/progress"
          ? (message as { params?: { progressToken?: unknown } }).params?.progressToken
          : undefined;
    const to = typeof token === "string" ? token.slice(0, token.indexOf(".")) : "";
    if (to === "" || to === this.node) return false;
    await this.store.relay({ id, kind: "message", to, from: this.node, message });
    return true;
  }

  /** A client's message another node received for a request of this one. */
  relayed(relayed: SessionMessage): void {
    if (relayed.from === this.node || (relayed.to !== undefined && relayed.to !== this.node)) return;
    const entry = this.local.entries.get(relayed.id);
    if (!entry) return;
    try {
      // Nothing is owed on it: a 202, at once.
      entry.transport.post(relayed.message, [], {});
    } catch (error) {
      this.local.report(error);
    }
  }
}
