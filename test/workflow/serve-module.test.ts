import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { serverCardHandler } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { CLI_BIN, FIXTURES, mcpkit, REPO_ROOT, startMcpkit, stopAll } from "./helpers.js";

// `mcpkit serve ./module` serves a user's own server module with serve's flags, over stdio
// and HTTP; TypeScript is compiled on the way; the HTTP endpoint can serve a Server Card.

afterEach(stopAll);

async function overStdio(module: string, env: Record<string, string> = {}) {
  requireBuild();
  const transport = stdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, "serve", module, "--stdio"],
    env,
    stderr: "pipe",
  });
  let stderr = "";
  const client = new Client({ name: "test", version: "1" });
  const connecting = client.connect(transport);
  transport.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  await connecting;
  return { client, stderr: () => stderr };
}

describe("mcpkit serve MODULE", () => {
  it("serves a JavaScript module's default-exported factory over stdio; what it logs goes to stderr", async () => {
    const { client, stderr } = await overStdio(join(FIXTURES, "env-server.mjs"), { GREETING: "hi" });
    try {
      expect(client.serverInfo).toMatchObject({ name: "env-server", version: "1.2.3" });
      expect(await client.callTool("greeting")).toMatchObject({ content: [{ text: "hi" }] });
      // console.log at load time did not corrupt the protocol on stdout: it reached stderr.
      expect(stderr()).toContain("a line a module logs as it loads");
    } finally {
      await client.close();
    }
  });

  it("compiles a TypeScript module, which still reads files beside its source through import.meta.url", async () => {
    const { client } = await overStdio(join(FIXTURES, "notes-server.ts"), { NOTES_DIR: "/notes" });
    try {
      expect(await client.callTool("motto", { shout: true })).toMatchObject({
        content: [{ text: "WRITE IT DOWN. (/NOTES)" }],
      });
    } finally {
      await client.close();
    }
    // The compiled file is removed once loaded: nothing is left in the cache folder.
    const cache = join(REPO_ROOT, "node_modules/.cache/mcpkit");
    expect(readdirSync(cache).filter((f) => f.startsWith("notes-server-"))).toEqual([]);
  });

  it("serves it over Streamable HTTP with --port, and a Server Card with --server-card", async () => {
    requireBuild();
    const served = startMcpkit(
      ["serve", join(FIXTURES, "env-server.mjs"), "--port", "0", "--server-card", "io.github.example/env"],
      { cwd: REPO_ROOT },
    );
    const base = (await served.waitFor(/serving MCP on (http:\/\/\S+)\/mcp/))[1] as string;
    // Where the card is, said at start beside the endpoint.
    await served.waitFor(new RegExp(`its Server Card: ${base}/\\.well-known/mcp/server-card\\.json\n`));
    const client = new Client({ name: "test", version: "1" });
    await client.connect(streamableHttpClientTransport(new URL(`${base}/mcp`)));
    expect(await client.callTool("where")).toMatchObject({ content: [{ text: REPO_ROOT.replace(/\/$/, "") }] });
    await client.close();

    const card = await fetch(`${base}/.well-known/mcp/server-card.json`);
    expect(card.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(card.headers.get("access-control-allow-origin")).toBe("*");
    expect(await card.json()).toEqual({
      $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
      name: "io.github.example/env",
      version: "1.2.3",
      description: "The env-server MCP server",
      remotes: [
        {
          type: "streamable-http",
          url: `${base}/mcp`,
          supportedProtocolVersions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
        },
      ],
    });
    expect((await fetch(`${base}/mcp/server-card`)).status).toBe(200);
    expect((await fetch(`${base}/.well-known/mcp/server-card.json`, { method: "POST" })).status).toBe(405);
  });

  it("serves no Server Card unless asked", async () => {
    requireBuild();
    const served = startMcpkit(["serve", join(FIXTURES, "env-server.mjs"), "--port", "0"], { cwd: REPO_ROOT });
    const base = (await served.waitFor(/serving MCP on (http:\/\/\S+)\/mcp/))[1] as string;
    expect((await fetch(`${base}/.well-known/mcp/server-card.json`)).status).toBe(404);
  });

  it.each([
    [["serve", "./no-such-module.ts"], "No such file: ./no-such-module.ts"],
    [["serve", join(FIXTURES, "not-a-server.mjs")], "must export its server: `export default server`"],
    [["serve", join(FIXTURES, "env-server.mjs"), "--server-card"], "--server-card is served over HTTP: add --port"],
  ])("mcpkit %j exits 2 saying what is wrong", async (args, message) => {
    requireBuild();
    const run = await mcpkit(args, { cwd: REPO_ROOT });
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
  });

  it("prints where a TypeScript module does not compile", async () => {
    requireBuild();
    const dir = join(REPO_ROOT, "node_modules/.cache/mcpkit-test-broken");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "broken.ts"), "export default function () {\n  return 1 +;\n}\n");
    const run = await mcpkit(["serve", join(dir, "broken.ts")], { cwd: REPO_ROOT });
    rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).toMatch(/broken\.ts:2:\d+: Unexpected ";"/);
    expect(run.code).toBe(1);
  });
});

describe("serverCardHandler (mcpkit/http)", () => {
  it("refuses a name that is not namespace/name", () => {
    const server = createServer({ name: "x", version: "1" });
    expect(() => serverCardHandler(server, { name: "just-a-name" })).toThrow(/namespace\/name/);
    expect(() => serverCardHandler(server, { name: "io.github.me/x" })).not.toThrow();
  });

  it("names the endpoint at the path given, on the host the request came to", async () => {
    const server = createServer({ name: "x", version: "1", title: "X", revisions: ["2026-07-28"] });
    const card = serverCardHandler(server, { name: "io.github.me/x", endpointPath: "/api/mcp" });
    const response = await card.fetch(new Request("https://mcp.example.com/.well-known/mcp/server-card.json"));
    expect(await response.json()).toMatchObject({
      title: "X",
      remotes: [{ url: "https://mcp.example.com/api/mcp", supportedProtocolVersions: ["2026-07-28"] }],
    });
    expect((await card.fetch(new Request("https://x/", { method: "OPTIONS" }))).status).toBe(204);
  });
});
