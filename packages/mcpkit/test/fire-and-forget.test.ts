import { describe, expect, it } from "vitest";
import { createStreamableHttpHandler } from "../src/endpoints/http/index.js";
import { createServer } from "../src/server/index.js";
import { InMemorySessionStore } from "../src/server/session-store.js";
import { listen } from "../src/transports/http/node.js";
import { ACCEPT_BOTH } from "./http-server/helpers.js";

// Work the library starts and does not await must report its failure to onError (docs/
// server.md: every unexpected failure reaches it), never reject unhandled: an unhandled
// rejection ends a Node process. (vitest fails a run that has one.)

/** Resolves with the first error reported, or rejects when none comes in time. */
function firstReport() {
  let report!: (error: unknown) => void;
  const reported = new Promise<unknown>((resolve, reject) => {
    report = resolve;
    setTimeout(() => reject(new Error("nothing reached onError")), 5000).unref();
  });
  return { report, reported };
}

describe("fire and forget", () => {
  it("a bus that rejects a publication (Redis offline) is reported to onError: resourceUpdated, list changes", async () => {
    for (const publish of [
      () => Promise.reject(new Error("bus offline")),
      () => {
        throw new Error("bus offline");
      },
    ]) {
      const first = firstReport();
      const errors: unknown[] = [];
      const server = createServer({
        name: "bus",
        version: "1",
        eventBus: { publish, subscribe: () => () => {} },
        onError: (error) => {
          errors.push(error);
          first.report(error);
        },
      });
      server.resourceUpdated("file:///a.txt");
      expect(await first.reported).toMatchObject({ message: "bus offline" });
      server.tool("late", {}, () => "x"); // a list change, published on the next microtask
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors).toHaveLength(2);
    }
  });

  it("a session store that fails while the session table evicts a session is reported to onError", async () => {
    const first = firstReport();
    const store = new InMemorySessionStore();
    store.delete = () => Promise.reject(new Error("store offline"));
    const server = createServer({ name: "evicts", version: "1", onError: first.report });
    server.tool("t", {}, () => "ok");
    const listening = await listen(
      createStreamableHttpHandler(server, { sessionStore: store, maxSessionsPerClient: 1 }),
      { host: "127.0.0.1", port: 0 },
    );
    try {
      const initialize = () =>
        fetch(listening.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: ACCEPT_BOTH },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
          }),
        }).then(async (response) => {
          await response.text();
          return response.status;
        });
      expect(await initialize()).toBe(200);
      // The same client again: its unused first session makes room, and ending it fails.
      expect(await initialize()).toBe(200);
      expect(await first.reported).toMatchObject({ message: "store offline" });
    } finally {
      await listening.close();
    }
  });
});
