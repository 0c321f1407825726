import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { InMemoryEventBus } from "../../src/server/events.js";
import { createServer } from "../../src/server/index.js";
import { sleep } from "../helpers.js";
import { meta, modernPeer } from "./helpers.js";

const SUB = "io.modelcontextprotocol/subscriptionId";
const notes = (received: JsonRpcMessage[], id: number | string) =>
  received.filter(
    (m) => "method" in m && (m.params?._meta as Record<string, unknown> | undefined)?.[SUB] === id,
  ) as (JsonRpcMessage & {
    method: string;
    params: Record<string, unknown>;
  })[];

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
    const { peer } = await modernPeer(s);
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
    await sleep(5);
    s.tool("added", {}, () => "");
    await sleep(5);
    s.resourceUpdated("test://watched");
    s.resourceUpdated("test://other");
    await sleep(5);
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
    const { peer } = await modernPeer(s);
    const listen = (id: number, notifications: Record<string, unknown>) =>
      peer.send({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta(), notifications } });
    const before = bus.listenerCount;
    listen(1, { toolsListChanged: true });
    listen(2, { resourcesListChanged: true });
    await sleep(5);
    expect(bus.listenerCount).toBe(before + 2);
    s.tool("x", {}, () => "");
    await sleep(5);
    expect(notes(peer.received, 1).map((n) => n.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    expect(notes(peer.received, 2).map((n) => n.method)).toEqual(["notifications/subscriptions/acknowledged"]);
    peer.notify("notifications/cancelled", { requestId: 1 });
    await sleep(5);
    expect(bus.listenerCount).toBe(before + 1);
    s.tool("y", {}, () => "");
    await sleep(5);
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
    await sleep(5);
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
