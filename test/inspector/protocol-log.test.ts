import { describe, expect, it } from "vitest";
import { ProtocolLog } from "../../packages/cli/src/inspector/protocol-log.js";

// The protocol view's exchanges: every message of one call, however many rounds it takes.

describe("the protocol log", () => {
  it("pairs an answer with its request, and times it", () => {
    const log = new ProtocolLog();
    const [request] = log.record("out", { jsonrpc: "2.0", id: 1, method: "tools/list" }, 1000);
    const [answer] = log.record("in", { jsonrpc: "2.0", id: 1, result: { tools: [] } }, 1042);
    expect(answer).toMatchObject({ kind: "response", method: "tools/list", group: request?.group, latencyMs: 42 });
  });

  it("puts a 2026-07-28 retry in the exchange of the input_required result whose requestState it carries", () => {
    const log = new ProtocolLog();
    const call = { name: "book", arguments: {}, _meta: { progressToken: "p1" } };
    const [first] = log.record("out", { jsonrpc: "2.0", id: 1, method: "tools/call", params: call });
    log.record("out", { jsonrpc: "2.0", id: 2, method: "tools/list" });
    const [progress] = log.record("in", {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "p1", progress: 1 },
    });
    log.record("in", {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "input_required", inputRequests: { name: {} }, requestState: "s1" },
    });
    const [retry] = log.record("out", {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { ...call, inputResponses: { name: {} }, requestState: "s1" },
    });
    const [done] = log.record("in", { jsonrpc: "2.0", id: 3, result: { content: [] } });
    expect(progress?.group).toBe(first?.group);
    expect(retry).toMatchObject({ group: first?.group, round: 2 });
    expect(done?.group).toBe(first?.group);
    const [other] = log.record("out", { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "x" } });
    expect(other?.group).not.toBe(first?.group);
    expect(other?.round).toBe(1);
  });

  it("nests a legacy server's own request, and the answer to it, in the call it serves", () => {
    const log = new ProtocolLog();
    const [call] = log.record("out", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask" } });
    log.record("out", { jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: {} });
    const [asked] = log.record("in", { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} });
    const [answered] = log.record("out", { jsonrpc: "2.0", id: 0, result: { action: "accept" } });
    expect(asked).toMatchObject({ kind: "request", group: call?.group });
    expect(answered).toMatchObject({ kind: "response", method: "elicitation/create", group: call?.group });
  });

  it("groups what a 2026-07-28 listen stream carries with its subscriptions/listen request", () => {
    const log = new ProtocolLog();
    const [listen] = log.record("out", { jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: {} });
    const tagged = { _meta: { "io.modelcontextprotocol/subscriptionId": 7 } };
    const [ack] = log.record("in", {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: tagged,
    });
    const [changed] = log.record("in", { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: tagged });
    const [untagged] = log.record("in", { jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(ack?.group).toBe(listen?.group);
    expect(changed?.group).toBe(listen?.group);
    expect(untagged?.group).toBeUndefined();
  });

  it("records each message of a batch, keeps a preview of a huge one, and keeps only the newest", () => {
    const log = new ProtocolLog(3);
    const entries = log.record("in", [
      { jsonrpc: "2.0", method: "notifications/message", params: { data: "x".repeat(300_000) } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    expect(entries.map((e) => e.kind)).toEqual(["notification", "notification"]);
    expect(entries[0]).toMatchObject({ truncated: true, method: "notifications/message" });
    expect(String(entries[0]?.message).length).toBeLessThan(5000);
    log.record("in", { nonsense: true });
    log.record("in", { jsonrpc: "2.0", method: "notifications/prompts/list_changed" });
    expect(log.entries.map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(log.entries[1]?.kind).toBe("invalid");
  });

  it("knows where each connection began: a recording is the last one's, whole, and a test file every one to its target", () => {
    const log = new ProtocolLog(6);
    expect(log.lastConnection()).toEqual([]);
    const ping = (id: number) => log.record("out", { jsonrpc: "2.0", id, method: "ping" });
    log.begin("http://a/mcp");
    ping(1);
    log.begin("http://b/mcp");
    ping(2);
    log.begin("http://a/mcp");
    ping(3);
    ping(4);
    const ids = (entries: { message: unknown }[] | undefined) => entries?.map((e) => (e.message as { id: number }).id);
    expect(ids(log.lastConnection())).toEqual([3, 4]);
    expect(ids(log.sameTarget())).toEqual([1, 3, 4]);

    // A connection with no message yet is an empty recording, not the one before.
    log.begin("http://a/mcp");
    expect(log.lastConnection()).toEqual([]);
    // One whose first messages left the log (it keeps 6) is no recording at all.
    for (let id = 5; id <= 11; id++) ping(id);
    expect(log.lastConnection()).toBeUndefined();
    expect(ids(log.sameTarget())).toEqual([6, 7, 8, 9, 10, 11]);
  });
});
