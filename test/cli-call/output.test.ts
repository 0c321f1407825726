import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  mcpkit,
  OFFICIAL_SERVER,
  REPO_ROOT,
  type Running,
  requireBuild,
  serveHttp,
  stopAll,
  tempDir,
} from "./helpers.js";

/**
 * What `mcpkit call` prints when servers do what real ones do: binary results with a
 * structured copy, errors carried by HTTP statuses, stray output, a URL without /mcp, a
 * handler that throws. Real processes; nothing here is a terminal.
 */

beforeAll(requireBuild);
afterEach(stopAll);

const call = (...args: string[]) => mcpkit(["call", ...args]);
const CHATTY = [process.execPath, fileURLToPath(new URL("fixtures/chatty-server.mjs", import.meta.url))];
const FILESYSTEM = [
  process.execPath,
  join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
];

/** A 1x1 PNG, padded to a size worth noticing. */
const png = Buffer.concat([
  Buffer.from(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
      "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082",
    "hex",
  ),
  Buffer.alloc(30_000),
]);

describe("binary results", () => {
  it("are one line saying what they are, without the structuredContent copy of their base64", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "chart.png"), png);
    const run = await call("read_media_file", `path=${join(dir, "chart.png")}`, "--", ...FILESYSTEM, dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`[image image/png, ${png.length} bytes]\n`);
  });

  it("are written into the folder --save names, which the line tells", async () => {
    const dir = tempDir();
    const saved = tempDir();
    writeFileSync(join(dir, "chart.png"), png);
    const run = await call(
      "--save",
      saved,
      "read_media_file",
      `path=${join(dir, "chart.png")}`,
      "--",
      ...FILESYSTEM,
      dir,
    );
    expect(run.code).toBe(0);
    expect(readdirSync(saved)).toEqual(["image-1.png"]);
    expect(readFileSync(join(saved, "image-1.png")).equals(png)).toBe(true);
    expect(run.stdout).toBe(`[image image/png, ${png.length} bytes → ${join(saved, "image-1.png")}]\n`);
  });
});

describe("a JSON-RPC error in an HTTP error status", () => {
  let server: ReturnType<typeof createHttpServer>;
  let url = "";
  beforeAll(async () => {
    // A 2025-11-25 server that refuses the call with HTTP 400 and a JSON-RPC error.
    server = createHttpServer(async (req, res) => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      let body = "";
      for await (const chunk of req) body += chunk;
      const message = body ? (JSON.parse(body) as { id?: number; method?: string }) : {};
      const json = (status: number, value: object) =>
        res.writeHead(status, { "content-type": "application/json", "mcp-session-id": "s" }).end(JSON.stringify(value));
      if (message.method === "initialize")
        return json(200, {
          jsonrpc: "2.0",
          id: message.id,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "h", version: "1" },
          },
        });
      if (message.method === "tools/list")
        return json(200, { jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "ask", inputSchema: {} }] } });
      if (message.method === "tools/call")
        return json(400, {
          jsonrpc: "2.0",
          id: message.id,
          error: {
            code: -32600,
            message: "This needs the client's form elicitation capability",
            data: { requiredCapabilities: { elicitation: { form: {} } } },
          },
        });
      res.writeHead(message.id === undefined ? 202 : 400).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is shown as on stdio: its message and code, its data, and the hint", async () => {
    const run = await call("--protocol", "2025-11-25", url, "ask");
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "mcpkit call: This needs the client's form elicitation capability (JSON-RPC error -32600)\n" +
        '{"requiredCapabilities":{"elicitation":{"form":{}}}}\n' +
        "mcpkit call answers sampling and elicitation only at a terminal (stdin and stderr), without --no-interactive.\n",
    );
    const json = await call("--json", "--protocol", "2025-11-25", url, "ask");
    expect(JSON.parse(json.stderr).error).toEqual({
      message: "This needs the client's form elicitation capability",
      code: -32600,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });
});

describe("mistakes that get a message saying what to do", () => {
  let everything: { url: string; server: Running };
  beforeAll(async () => {
    everything = await serveHttp();
  });
  afterAll(() => everything.server.child.kill("SIGTERM"));

  it("a tool name after -- COMMAND, which went to the server as an argument", async () => {
    const run = await call("--", ...OFFICIAL_SERVER, "echo");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"echo" came after the command, so it went to the server as an argument');
    expect(run.stderr).toContain(`mcpkit call echo -- ${OFFICIAL_SERVER.join(" ")}`);
  });

  it("a URL without /mcp", async () => {
    const root = everything.url.replace(/\/mcp$/, "");
    const run = await call(root, "tools");
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`most servers serve it at /mcp: try ${root}/mcp\n`);
  });

  it("a URL with another path: the origin's /mcp first, then under that path", async () => {
    const root = everything.url.replace(/\/mcp$/, "");
    const run = await call(`${root}/api`, "tools");
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`most servers serve it at /mcp: try ${root}/mcp or ${root}/api/mcp\n`);
  });

  it("a stdio server that prints to stdout: warned about at once, and the call still works", async () => {
    const run = await call("ping", "--", ...CHATTY);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("pong\n");
    expect(run.stderr).toContain(
      'the server wrote to stdout a line that is not MCP: "Weather server v2 starting on stdio..."',
    );
  });

  it("a stdio server that prints only noise: the timeout says what it printed", async () => {
    const run = await call("--timeout", "1", "tools", "--", ...CHATTY, "only-noise");
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("The server wrote");
    expect(run.stderr).toContain("must write only JSON-RPC messages to stdout");
  });

  it("a resource template whose handler throws: the server's stderr says why", async () => {
    const run = await call("read", "db://rows/7", "--", ...CHATTY);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("(JSON-RPC error -32603)");
    expect(run.stderr).toContain("The server's stderr ended with:");
    expect(run.stderr).toContain("the database at db.internal:5432 is offline");
  });

  it("a server that logs why a moment after answering, with other lines before: the reason is shown", async () => {
    const run = await call("read", "db://rows/7", "--", ...CHATTY, "late-log");
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("The server's stderr ended with:");
    expect(run.stderr).toContain("chatty: started");
    expect(run.stderr).toContain("chatty: the database at db.internal:5432 is offline");
  });
});
