import { describe, expect, it } from "vitest";
import type { Client } from "../../src/client/index.js";
import { createProxy } from "../../src/compose/index.js";
import { REVISIONS, type Revision } from "../../src/protocol/versions.js";
import { createServer, type ServerMiddleware } from "../../src/server/index.js";
import { createLinkedPair } from "../../src/testing/index.js";
import { callerOf, later, proxyOf } from "./helpers.js";

/**
 * Subscriptions travel upstream when a caller subscribes, for any URI the upstream serves
 * (a template's too), and its updates reach the callers that subscribed, and no others.
 */

/** An upstream with a template and a listed resource, that records what it is asked to subscribe to. */
function watchedServer() {
  const asked: string[] = [];
  const record: ServerMiddleware = (ctx, next) => {
    if (ctx.method === "resources/subscribe" || ctx.method === "resources/unsubscribe")
      asked.push(`${ctx.method.split("/")[1]} ${String(ctx.params?.uri)}`);
    return next();
  };
  const server = createServer({ name: "watched", version: "1", middleware: [record] });
  server.resource("test://static", {}, () => "static");
  server.resourceTemplate("test://items/{id}", { name: "item" }, (_uri, { id }) => `item ${String(id)}`);
  return { server, asked };
}

const updatesOf = (client: Client) => {
  const got: string[] = [];
  client.on("notifications/resources/updated", (p) => got.push(String(p.uri)));
  return got;
};

const ERAS: { name: string; revision: Revision | undefined }[] = [
  { name: "legacy", revision: undefined },
  { name: "modern", revision: "2026-07-28" },
];

for (const downstream of ERAS)
  for (const upstream of ERAS)
    describe(`a ${downstream.name} caller, a ${upstream.name} upstream`, () => {
      it("delivers a template URI's updates to the caller that subscribed, and only while it is", async () => {
        const { server } = watchedServer();
        const proxy = await proxyOf(server, {
          ...(upstream.revision && { client: { protocolVersion: upstream.revision } }),
          ...(downstream.revision && !upstream.revision && { revisions: REVISIONS }),
        });
        const options = downstream.revision ? { protocolVersion: downstream.revision } : {};
        const ada = await callerOf(proxy, options);
        const bob = await callerOf(proxy, options);
        const adas = updatesOf(ada.client);
        const bobs = updatesOf(bob.client);
        await ada.client.subscribe("test://items/7");
        await bob.client.subscribe("test://items/8");
        server.resourceUpdated("test://items/7");
        await expect.poll(() => adas).toEqual(["test://items/7"]);
        server.resourceUpdated("test://items/8");
        await expect.poll(() => bobs).toEqual(["test://items/8"]);
        expect(adas).toEqual(["test://items/7"]);
        await ada.client.unsubscribe("test://items/7");
        server.resourceUpdated("test://items/7");
        server.resourceUpdated("test://items/8");
        await expect.poll(() => bobs).toEqual(["test://items/8", "test://items/8"]);
        expect(adas).toEqual(["test://items/7"]);
      });
    });

describe("subscriptions on a connection several callers share", () => {
  it("subscribes upstream once per URI, and unsubscribes when the last subscriber is gone, closed sessions too", async () => {
    const { server, asked } = watchedServer();
    const [clientSide, serverSide] = createLinkedPair();
    const upstreamSession = await server.connect(serverSide);
    const proxy = await createProxy(clientSide);
    later(async () => {
      await proxy.close();
      await upstreamSession.close();
    });
    const ada = await callerOf(proxy);
    const bob = await callerOf(proxy);
    await ada.client.subscribe("test://items/1");
    await bob.client.subscribe("test://items/1");
    expect(asked).toEqual(["subscribe test://items/1"]);
    await ada.client.unsubscribe("test://items/1");
    expect(asked).toEqual(["subscribe test://items/1"]);
    await bob.close();
    await expect.poll(() => asked).toEqual(["subscribe test://items/1", "unsubscribe test://items/1"]);
  });

  it("refuses a subscription the upstream refuses, with its error", async () => {
    const { server } = watchedServer();
    const proxy = await proxyOf(server);
    const { client } = await callerOf(proxy);
    // Unknown to the proxy's mirror: refused before it travels.
    await expect(client.subscribe("other://x")).rejects.toMatchObject({ code: -32002 });
  });
});
