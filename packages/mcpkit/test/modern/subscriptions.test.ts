import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { InMemoryEventBus } from "../../src/server/events.js";
import { createServer } from "../../src/server/index.js";
import { meta, modernPeer } from "./helpers.js";

const SUB = "io.modelcontextprotocol/subscriptionId";
const notes = (received: JsonRpcMessage[], id: number | string) =>
  received.filter(
    (m) => "method" in m && (m.params?._meta as Record<string, unknown> | undefined)?.[SUB] === id,
  ) as (JsonRpcMessage & {
    method: string;
    params: Record<string, unknown>;
  })[];

/** Resolves with the first message tagged with subscription `id` whose method is `method`. */
const tagged = (
  peer: { next(test: (m: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> },
  id: number | string,
  method: string,
) =>
  peer.next(
    (m) =>
      "method" in m && m.method === method && (m.params?._meta as Record<string, unknown> | undefined)?.[SUB] === id,
  );

// Notifications go out as the change happens, and a connection answers in order: once a
// request sent after a change is answered, whatever the change caused has arrived.

function server() {
  const bus = new InMemoryEventBus();
  const s = createServer({ name: "subs", version: "1", eventBus: bus });
  s.tool("t", {}, () => "");
  s.resource("test://watched", { name: "w" }, () => "w");
  return { s, bus };
}

describe("2026-07-28 subscriptions/listen", () => {
  it("acknowledges first with the honoured filter, then tags every notification with the subscription id", async () => {
    const { s } = server();
    const { peer, call } = await modernPeer(s);
    peer.send({
      jsonrpc: "2.0",
      id: 7,
      method: "subscriptions/listen",
      params: {
        _meta: meta(),
        // prompts are not offered by this server: not honoured
        notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["test://watched"] },
      },
    });
    await tagged(peer, 7, "notifications/subscriptions/acknowledged");
    s.tool("added", {}, () => "");
    await tagged(peer, 7, "notifications/tools/list_changed");
    s.resourceUpdated("test://other");
    s.resourceUpdated("test://watched");
    await call("tools/list");
    const seen = notes(peer.received, 7);
    expect(seen.map((n) => n.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/resources/updated",
    ]);
    expect(seen[0]?.params).toEqual({
      notifications: { toolsListChanged: true, resourceSubscriptions: ["test://watched"] },
      _meta: { [SUB]: 7 },
    });
    expect(seen[2]?.params).toEqual({ uri: "test://watched", _meta: { [SUB]: 7 } });
  });

  it("sends only what each stream asked for, and stops when the client cancels", async () => {
    const { s, bus } = server();
    const { peer, call } = await modernPeer(s);
    const listen = (id: number, notifications: Record<string, unknown>) =>
      peer.send({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta(), notifications } });
    const before = bus.listenerCount;
    listen(1, { toolsListChanged: true });
    listen(2, { resourcesListChanged: true });
    await tagged(peer, 1, "notifications/subscriptions/acknowledged");
    await tagged(peer, 2, "notifications/subscriptions/acknowledged");
    expect(bus.listenerCount).toBe(before + 2);
    s.tool("x", {}, () => "");
    await call("tools/list");
    expect(notes(peer.received, 1).map((n) => n.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    expect(notes(peer.received, 2).map((n) => n.method)).toEqual(["notifications/subscriptions/acknowledged"]);
    peer.notify("notifications/cancelled", { requestId: 1 });
    await call("tools/list"); // read after the cancellation
    expect(bus.listenerCount).toBe(before + 1);
    s.tool("y", {}, () => "");
    s.resource("test://more", { name: "more" }, () => "");
    await tagged(peer, 2, "notifications/resources/list_changed");
    await call("tools/list");
    expect(notes(peer.received, 1)).toHaveLength(2);
    // A cancelled request gets no response.
    expect(peer.received.some((m) => "id" in m && m.id === 1 && !("method" in m))).toBe(false);
  });

  it("ends streams gracefully when the server closes: a result tagged with the subscription", async () => {
    const { s } = server();
    const { peer } = await modernPeer(s);
    peer.send({
      jsonrpc: "2.0",
      id: "sub",
      method: "subscriptions/listen",
      params: { _meta: meta(), notifications: { toolsListChanged: true } },
    });
    await tagged(peer, "sub", "notifications/subscriptions/acknowledged");
    const ending = peer.next((m) => "id" in m && m.id === "sub" && "result" in m);
    await s.close();
    expect(await ending).toMatchObject({ result: { resultType: "complete", _meta: { [SUB]: "sub" } } });
  });

  it("refuses a listen without a filter", async () => {
    const { s } = server();
    const { call } = await modernPeer(s);
    expect((await call("subscriptions/listen", {})).error).toMatchObject({ code: -32602 });
  });
});
