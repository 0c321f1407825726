/**
 * `mcpkit serve proxy` as users run it: a real proxy process fronting a real
 * `mcpkit serve everything` child, driven by the official SDK's client (which validates
 * every message against its own schemas), over stdio and over Streamable HTTP.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterEach, describe, expect, it } from "vitest";
import { startAuthorizationServer } from "../auth/authorization-server.js";
import { closeServed, sdkOverHttp, sdkOverStdio, serveHttp, textOf } from "../serve/helpers.js";
import { MCPKIT_BIN, SERVER_NODE } from "../workspace/helpers.js";

/** The operands that make `serve proxy` front `serve everything` on stdio. */
const FRONT_EVERYTHING = ["--", SERVER_NODE, MCPKIT_BIN, "serve", "everything"];

afterEach(closeServed);

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A node:http server on 127.0.0.1 (a free port); resolves with its /mcp URL. */
async function listening(handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe("mcpkit serve proxy -- <command>, seen by the official SDK client", () => {
  it("is an ordinary server over stdio: tools, resources, prompts, completion, and the client's answers", async () => {
    const logs: unknown[] = [];
    const updates: string[] = [];
    const client = await sdkOverStdio("proxy", FRONT_EVERYTHING, {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      setup(c) {
        c.setRequestHandler(ElicitRequestSchema, () => ({
          action: "accept",
          content: { username: "ada", email: "ada@example.com" },
        }));
        c.setRequestHandler(CreateMessageRequestSchema, () => ({
          role: "assistant",
          content: { type: "text", text: "Paris" },
          model: "test-model",
        }));
        c.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///proxied-root" }] }));
        c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
      },
    });
    expect(client.getServerVersion()).toMatchObject({
      name: "mcpkit-everything",
      title: "mcpkit everything server",
      websiteUrl: "https://github.com/mcpkit/mcpkit",
    });
    expect(client.getInstructions()).toContain("A test server");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["add", "test_simple_text", "test_elicitation"]));

    expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toContain("simple text");
    const add = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(add.structuredContent).toMatchObject({ sum: 42 });

    const elicited = await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } });
    expect(textOf(elicited)).toContain("ada");
    expect(textOf(await client.callTool({ name: "test_sampling", arguments: { prompt: "Capital?" } }))).toContain(
      "Paris",
    );
    expect(textOf(await client.callTool({ name: "test_list_roots", arguments: {} }))).toContain("file:///proxied-root");

    const progress: number[] = [];
    await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress.length).toBeGreaterThan(0);
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs.length).toBeGreaterThan(0);

    const read = await client.readResource({ uri: "test://static-text" });
    expect(read.contents[0]).toMatchObject({ uri: "test://static-text", text: expect.any(String) });
    const templated = await client.readResource({ uri: "test://template/7/data" });
    expect(templated.contents[0]).toMatchObject({
      uri: "test://template/7/data",
      text: expect.stringContaining(`"id":"7"`),
    });
    await client.subscribeResource({ uri: "test://watched-resource" });
    await client.callTool({ name: "test_update_watched_resource", arguments: { text: "version 2" } });
    await expect.poll(() => updates, { timeout: 10_000 }).toContain("test://watched-resource");

    const prompt = await client.getPrompt({ name: "test_simple_prompt" });
    expect(prompt.messages.length).toBeGreaterThan(0);
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "1" },
    });
    expect(completion.completion.values).toContain("12");
  }, 60_000);

  it("serves the proxied server over Streamable HTTP", async () => {
    const served = await serveHttp("proxy", FRONT_EVERYTHING);
    expect(served.stderr()).toContain("fronting");
    const client = await sdkOverHttp(served.url);
    expect(client.getServerVersion()?.name).toBe("mcpkit-everything");
    const add = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(add.structuredContent).toMatchObject({ sum: 3 });
    const error = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(error.isError).toBe(true);
  }, 60_000);

  it("fronts a server reached over Streamable HTTP (mcpkit serve proxy <url>)", async () => {
    const upstream = await serveHttp("everything", []);
    const served = await serveHttp("proxy", [upstream.url.href]);
    expect(served.stderr()).toContain(`fronting ${upstream.url.href}`);
    const client = await sdkOverHttp(served.url);
    const add = await client.callTool({ name: "add", arguments: { a: 20, b: 22 } });
    expect(add.structuredContent).toMatchObject({ sum: 42 });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("test_simple_prompt");
  }, 60_000);

  it("offers a stdio server over HTTP with OAuth (--auth-server): no token, 401; a token for it, served", async () => {
    const as = await startAuthorizationServer();
    try {
      const served = await serveHttp("proxy", [
        "--auth-server",
        as.issuer,
        "--jwks-url",
        as.jwksUrl,
        ...FRONT_EVERYTHING,
      ]);
      const refused = await fetch(served.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(refused.status).toBe(401);
      const token = await as.sign({ sub: "ada", scope: "mcp" }, { audience: served.url.href });
      for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
        const client = new Client({ name: "t", version: "1", protocolVersion });
        await client.connect(
          streamableHttpClientTransport(served.url, { headers: { authorization: `Bearer ${token}` } }),
        );
        try {
          expect((await client.callTool("add", { a: 2, b: 5 })).structuredContent).toEqual({ sum: 7 });
        } finally {
          await client.close();
        }
      }
    } finally {
      await closeServed();
      await as.close();
    }
  }, 60_000);

  it("refuses a redirect to another origin, where --header values would go; follows it with --allow-redirects, without them", async () => {
    // The other origin: a 2025-11-25 server that lists one tool and records the headers it got.
    const seen: Record<string, string | string[] | undefined>[] = [];
    const elsewhere = await listening(async (req, res) => {
      seen.push(req.headers);
      if (req.method !== "POST") return void res.writeHead(405).end();
      let body = "";
      for await (const chunk of req) body += chunk;
      const { id, method } = JSON.parse(body) as { id?: number; method?: string };
      const reply = (result: object) =>
        res
          .writeHead(200, { "content-type": "application/json", "mcp-session-id": "s" })
          .end(JSON.stringify({ jsonrpc: "2.0", id, result }));
      if (method === "initialize")
        return reply({
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "elsewhere", version: "1" },
        });
      if (method === "tools/list") return reply({ tools: [{ name: "t", inputSchema: { type: "object" } }] });
      res.writeHead(id === undefined ? 202 : 400).end();
    });
    const redirecting = await listening((_req, res) => void res.writeHead(307, { location: elsewhere }).end());
    const refused = await serveHttp("proxy", [redirecting, "--header", "x-api-key: secret"]).catch((e: Error) => e);
    expect(String(refused)).toContain(`redirected to another origin (${new URL(elsewhere).origin})`);
    expect(seen).toEqual([]);
    const served = await serveHttp("proxy", [redirecting, "--header", "x-api-key: secret", "--allow-redirects"]);
    const client = await sdkOverHttp(served.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["t"]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((headers) => headers["x-api-key"] === undefined)).toBe(true);
  }, 60_000);

  it("stops serving, exit code 1 and the reason on stderr, when the server it fronts exits", async () => {
    const quitting = fileURLToPath(new URL("fixtures/quitting-server.mjs", import.meta.url));
    const served = await serveHttp("proxy", ["--", SERVER_NODE, quitting]);
    const exited = new Promise<number | null>((resolve) => served.child.once("exit", (code) => resolve(code)));
    const client = await sdkOverHttp(served.url);
    expect(textOf(await client.callTool({ name: "quit", arguments: {} }))).toBe("bye");
    expect(await exited).toBe(1);
    expect(served.stderr()).toContain("the proxied server closed the connection");
  }, 60_000);

  it("asks each caller what its own call needs: a legacy server's question names no call, each session has its own server", async () => {
    const whoami = fileURLToPath(new URL("fixtures/whoami-server.mjs", import.meta.url));
    const served = await serveHttp("proxy", ["--", SERVER_NODE, whoami, "1"]);
    const callers = await Promise.all(
      ["ada", "bob"].map((name) =>
        sdkOverHttp(served.url, { elicitation: { form: {} } }, (c) =>
          c.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name } })),
        ),
      ),
    );
    const [ada, bob] = await Promise.all(callers.map((c) => c.callTool({ name: "whoami", arguments: {} })));
    expect(textOf(ada)).toBe("ada");
    expect(textOf(bob)).toBe("bob");
  }, 60_000);

  it("never asks one caller what another's call needs, when every caller shares one server (--shared-upstream)", async () => {
    const whoami = fileURLToPath(new URL("fixtures/whoami-server.mjs", import.meta.url));
    const served = await serveHttp("proxy", ["--shared-upstream", "--", SERVER_NODE, whoami]);
    const callers = await Promise.all(
      ["ada", "bob"].map((name) =>
        sdkOverHttp(served.url, { elicitation: { form: {} } }, (c) =>
          c.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name } })),
        ),
      ),
    );
    const [ada, bob] = await Promise.all(
      callers.map((c) =>
        c.callTool({ name: "whoami", arguments: {} }).then(
          (r) => JSON.stringify(r),
          (e: unknown) => String(e),
        ),
      ),
    );
    expect(ada).not.toContain('"bob"');
    expect(bob).not.toContain('"ada"');
    expect(`${ada}${bob}`).toContain("does not say which of their calls it is for");
  }, 60_000);
});
