import { execFileSync } from "node:child_process";
import { existsSync, readlinkSync, realpathSync } from "node:fs";
import { Client } from "mcpkit/client";
import { type StdioClientTransport, stdioClientTransport } from "mcpkit/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, forceKill, ProcessPool, REPO_ROOT, within } from "../../packages/mcpkit/test/stdio/helpers.js";
import { nodeRuntime } from "../../scripts/node-runtime.mjs";

// mcpkit supports Node >= 20. The built CLI serves on each supported major and the built
// client drives it from each: the Node that runs the tests, and the others installed on
// demand from the npm registry (scripts/node-runtime.mjs; one that cannot be installed fails
// here with the reason).

const pool = new ProcessPool();
let client: Client | undefined;
let transport: StdioClientTransport | undefined;

const major = (bin: string) =>
  Number(/^v(\d+)\./.exec(execFileSync(bin, ["--version"], { encoding: "utf8" }).trim())?.[1] ?? Number.NaN);

const RUNTIMES = [20, 22, 24].map((major) => [`Node ${major}`, major] as const);

beforeAll(() => {
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

describe.each(RUNTIMES)("%s", (_name, version) => {
  let node = "";
  beforeAll(() => {
    node = nodeRuntime(version);
  }, 120_000);

  it("serves `mcpkit serve everything --stdio` to the mcpkit client", async () => {
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
