import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { jwtVerifier, OAuthClient, parseBearerChallenge, protectedResource, type ResourceServer } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, type StreamableHttpHandler } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import type { McpServer } from "mcpkit/server";
import { afterEach, describe, expect, it } from "vitest";
import { createPortableServer } from "../../examples/runtimes/server.mjs";
import {
  ACCEPT_BOTH,
  allEvents,
  initializeBody,
  messagesOf,
  sessionHeaders,
  sseEvents,
} from "../../packages/mcpkit/test/http-server/helpers.js";
import { startAuthorizationServer } from "../auth/authorization-server.js";
import { exercisePortableServer } from "../runtimes/exercise.js";
import { start, stopAll, waitForOutput } from "../runtimes/processes.js";

/** A framework under test: its app (from examples/frameworks) as a node:http request listener. */
export interface Framework {
  name: string;
  listener(mcp: StreamableHttpHandler, auth: ResourceServer | undefined): RequestListener | Promise<RequestListener>;
}

interface Served {
  url: string;
  server: McpServer;
  mcp: StreamableHttpHandler;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await stopAll();
});

/**
 * The portable server behind the framework on 127.0.0.1. The port is bound before the app
 * is built, so that an OAuth resource server can name the endpoint's real URL.
 */
async function serve(framework: Framework, authFor?: (url: string) => ResourceServer): Promise<Served> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const auth = authFor?.(url);
  const server = createPortableServer();
  const mcp = createStreamableHttpHandler(server, { auth });
  closers.push(() => mcp.close());
  http.on("request", await framework.listener(mcp, auth));
  return { url, server, mcp };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
    body: JSON.stringify(body),
  });

const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((block) => block.text ?? "").join("");

/** The user's browser: the test authorization server approves at once and redirects back. */
const browser = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  return new URL(response.headers.get("location") as string);
};

/** An MCP endpoint mounted in `framework`, over real HTTP: what every framework must get right. */
export function frameworkSuite(framework: Framework): void {
  describe(`an MCP endpoint in ${framework.name}`, () => {
    it("holds a session: initialize, progress streamed on the POST, the GET stream, DELETE", async () => {
      const { url, server, mcp } = await serve(framework);
      const init = await post(url, initializeBody());
      expect(init.status).toBe(200);
      const session = init.headers.get("mcp-session-id") as string;
      expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await init.json()).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
      const initialized = await post(
        url,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        sessionHeaders(session),
      );
      expect(initialized.status).toBe(202);
      expect(mcp.sessionCount).toBe(1);

      // The standalone stream carries what the server says on its own.
      const get = await fetch(url, { headers: { ...sessionHeaders(session), accept: "text/event-stream" } });
      expect(get.status).toBe(200);
      expect(get.headers.get("content-type")).toBe("text/event-stream");
      const events = sseEvents(get);
      expect((await events.next()).value).toMatchObject({ data: "" }); // the priming event
      server.tool("late", {}, () => "late");
      expect(JSON.parse((await events.next()).value?.data ?? "")).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: {},
      });
      await events.return(undefined);

      // Progress before the result turns the POST's answer into an event stream.
      const call = await post(
        url,
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "countdown", arguments: { from: 2 }, _meta: { progressToken: "t" } },
        },
        sessionHeaders(session),
      );
      expect(call.headers.get("content-type")).toBe("text/event-stream");
      expect(messagesOf(await allEvents(call))).toEqual([
        expect.objectContaining({ method: "notifications/progress", params: expect.objectContaining({ progress: 1 }) }),
        expect.objectContaining({ method: "notifications/progress", params: expect.objectContaining({ progress: 2 }) }),
        { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "liftoff" }] } },
      ]);

      const ended = await fetch(url, { method: "DELETE", headers: sessionHeaders(session) });
      expect(ended.status).toBe(204);
      expect(mcp.sessionCount).toBe(0);
      expect((await post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, sessionHeaders(session))).status).toBe(404);
    });

    it("serves mcpkit's client in a 2025-11-25 session and with 2026-07-28 requests", async () => {
      const { url } = await serve(framework);
      for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
        const client = new Client({ name: "framework-test", version: "1", protocolVersion });
        await client.connect(streamableHttpClientTransport(url));
        expect(client.protocolVersion).toBe(protocolVersion);
        await exercisePortableServer(client, { runtime: /^Node\.js\//, validator: "ajv" });
        await client.close();
      }
    });

    it("behind OAuth: 401 with a challenge naming the metadata URL, served there; a client logs in through it", async () => {
      const as = await startAuthorizationServer();
      closers.push(() => as.close());
      const { url } = await serve(framework, (resource) =>
        protectedResource({
          resource,
          authorizationServers: [as.issuer],
          scopesSupported: ["tools:read"],
          verifier: jwtVerifier({ jwksUrl: as.jwksUrl, issuer: as.issuer, audience: resource }),
        }),
      );
      const refused = await post(url, initializeBody());
      expect(refused.status).toBe(401);
      const challenge = parseBearerChallenge(refused.headers.get("www-authenticate"));
      expect(challenge?.resourceMetadata).toBe(new URL("/.well-known/oauth-protected-resource/mcp", url).href);
      const metadata = await fetch(challenge?.resourceMetadata as string);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource: url, authorization_servers: [as.issuer] });

      for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
        const oauth = new OAuthClient({
          serverUrl: url,
          redirectUri: "http://127.0.0.1:9/callback",
          redirect: browser,
        });
        const client = new Client({ name: "framework-test", version: "1", protocolVersion });
        await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
        expect(text(await client.callTool("add", { a: 2, b: 3 }))).toBe("5");
        await client.close();
      }
      expect(as.grants).toEqual(["authorization_code", "authorization_code"]);
    });
  });
}

/** An example file of examples/frameworks run as a program, as its first line says. */
export function programSuite(name: string): void {
  it(`examples/frameworks/${name}.mjs runs as a program`, async () => {
    const file = fileURLToPath(new URL(`../../examples/frameworks/${name}.mjs`, import.meta.url));
    const program = start(process.execPath, [file], { PORT: "0" });
    const url = (await waitForOutput(program, /serving MCP on (\S+)/))[1] as string;
    const client = new Client({ name: "framework-test", version: "1" });
    await client.connect(streamableHttpClientTransport(url));
    expect(text(await client.callTool("add", { a: 2, b: 3 }))).toBe("5");
    await client.close();
  });
}
