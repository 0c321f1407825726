import { afterEach, describe, expect, it } from "vitest";
import { Client, type ServerDescription } from "../../src/client/index.js";
import { createStreamableHttpHandler, type StreamableHttpHandler } from "../../src/endpoints/http/index.js";
import { createServer, type McpServer } from "../../src/server/index.js";
import { type Listening, listen } from "../../src/transports/http/node.js";
import { streamableHttpClientTransport } from "../../src/transports/streamable-http/client/index.js";
import { within } from "./helpers.js";

// A 2025-era server that forgets the session (HTTP 404 for its id: it restarted) makes the
// Client start a new session by itself (transports §Session Management item 4), and tell
// `onSessionRenewed` what the new handshake said: an application showing the session
// (its id, the server's info and capabilities) shows the new one.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Version 1 offers a tool; version 2, after the "restart", a prompt as well. */
function vault(version: "1" | "2") {
  const server = createServer({ name: "vault", version });
  server.tool("whoami", {}, () => `vault ${version}`);
  server.tool("chatter", {}, (_args, ctx) => {
    ctx.log("debug", `vault ${version} says`);
    return "said";
  });
  server.resource("memo://board", { name: "board" }, () => `board of vault ${version}`);
  if (version === "2") server.prompt("greet", {}, () => "Hello");
  return server;
}

/** An HTTP server on 127.0.0.1 whose MCP server can be replaced, as a restart on the same port would. */
async function restartable(): Promise<{ url: string; restart(): Promise<void>; server(): McpServer }> {
  let server = vault("1");
  let handler: StreamableHttpHandler = createStreamableHttpHandler(server);
  const listening: Listening = await listen({ fetch: (request) => handler.fetch(request) });
  closers.push(() => listening.close());
  return {
    url: new URL("/mcp", listening.url).href,
    server: () => server,
    async restart() {
      const old = handler;
      server = vault("2");
      handler = createStreamableHttpHandler(server);
      closers.push(() => handler.close());
      await old.close();
    },
  };
}

describe("a session the server forgot", () => {
  it("is renewed by the Client, which tells onSessionRenewed the new session's description once", async () => {
    const server = await restartable();
    const renewals: { description: ServerDescription; sessionId: string | undefined }[] = [];
    const transport = streamableHttpClientTransport(server.url, { standaloneStream: false });
    const client = new Client({
      name: "renew-test",
      version: "1",
      protocolVersion: "2025-11-25",
      timeoutMs: 10_000,
      onSessionRenewed: (description) => renewals.push({ description, sessionId: transport.sessionId }),
    });
    closers.push(() => client.close());
    const first = await within(client.connect(transport), 5000, "connect");
    const firstSession = transport.sessionId;
    expect(first.serverInfo.version).toBe("1");
    expect(await client.callTool("whoami", {})).toMatchObject({ content: [{ text: "vault 1" }] });
    expect(renewals).toEqual([]);

    await server.restart();
    // Two requests fail together with the old session: one renewal serves both.
    const calls = await within(
      Promise.all([client.callTool("whoami", {}), client.callTool("whoami", {})]),
      5000,
      "the calls to be answered in the new session",
    );
    expect(calls).toMatchObject([{ content: [{ text: "vault 2" }] }, { content: [{ text: "vault 2" }] }]);

    expect(renewals).toHaveLength(1);
    const renewed = renewals[0] as (typeof renewals)[number];
    // The new session's id is already the transport's when the listener is told.
    expect(renewed.sessionId).toBeTruthy();
    expect(renewed.sessionId).not.toBe(firstSession);
    expect(renewed.sessionId).toBe(transport.sessionId);
    expect(renewed.description).toMatchObject({ era: "legacy", serverInfo: { name: "vault", version: "2" } });
    expect(renewed.description.capabilities.prompts).toBeDefined();
    expect(first.capabilities.prompts).toBeUndefined();
    // The client's own view follows the new session as well.
    expect(client.serverInfo?.version).toBe("2");
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
  });

  it("asks the new session for what the old one was asked: its log level and resource subscriptions", async () => {
    const server = await restartable();
    const updates: string[] = [];
    const logs: unknown[] = [];
    const client = new Client({ name: "renew-test", version: "1", protocolVersion: "2025-11-25", timeoutMs: 10_000 });
    closers.push(() => client.close());
    client.on("notifications/resources/updated", (p) => updates.push(p.uri as string));
    client.on("notifications/message", (p) => logs.push(p.data));
    await within(client.connect(streamableHttpClientTransport(server.url)), 5000, "connect");
    await client.setLogLevel("debug");
    await client.subscribe("memo://board");

    await server.restart();
    // The first request after the restart renews the session; the debug log of the call
    // reaches the client only if the new session was told the level again.
    await within(client.callTool("chatter", {}), 5000, "the call in the new session");
    expect(logs).toContain("vault 2 says");
    server.server().resourceUpdated("memo://board");
    await within(
      (async () => {
        while (!updates.includes("memo://board")) await client.ping();
      })(),
      5000,
      "the update in the new session",
    );
  });

  it("goes on when the listener throws: the failure is reported to onError, the request answered", async () => {
    const server = await restartable();
    const errors: unknown[] = [];
    const client = new Client({
      name: "renew-test",
      version: "1",
      protocolVersion: "2025-11-25",
      timeoutMs: 10_000,
      onSessionRenewed: () => {
        throw new Error("the listener failed");
      },
      onError: (error) => errors.push(error),
    });
    closers.push(() => client.close());
    await within(
      client.connect(streamableHttpClientTransport(server.url, { standaloneStream: false })),
      5000,
      "connect",
    );
    await server.restart();
    expect(await within(client.callTool("whoami", {}), 5000, "the call")).toMatchObject({
      content: [{ text: "vault 2" }],
    });
    expect(errors).toEqual([new Error("the listener failed")]);
  });
});
