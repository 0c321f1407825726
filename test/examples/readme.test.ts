import { type ChildProcess, execFile, type SpawnOptions, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../packages/mcpkit/test/stdio/helpers.js";
import { blocks, CLI, ROOT, words } from "./readme-blocks.js";

// The README's quick start, as a reader would follow it: `npm start`, then the commands it
// lists, then the Claude Desktop configuration it shows.

const run = promisify(execFile);

let server: ChildProcess | undefined;
let url = "";

beforeAll(async () => {
  // `npm start`, with a free port instead of 3000 (commander keeps the last --port).
  const npm = process.env.npm_execpath;
  // Its own process group, so stopping it reaches the server npm started, as Ctrl+C would.
  const options: SpawnOptions = { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], detached: true };
  server = npm
    ? spawn(process.execPath, [npm, "start", "--", "--port", "0"], options)
    : spawn("npm", ["start", "--", "--port", "0"], options);
  let stderr = "";
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL:\n${stderr}`)), 20_000);
    server?.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /serving MCP on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
  });
  expect(stderr).toContain("mcpkit serve workspace:");
  expect(stderr).toContain("built-in sample database");
}, 30_000);

afterAll(async () => {
  if (!server) return;
  const exited = server.exitCode === null ? new Promise((resolve) => server?.once("exit", resolve)) : undefined;
  try {
    // The whole group: whatever a failed test left of `npm start`, as Ctrl+C would.
    process.kill(-(server.pid as number), "SIGINT");
  } catch {
    // Nothing left.
  }
  await exited;
});

/** Resolves once nothing answers at `url`; rejects after `ms`. */
async function refused(url: string, ms: number): Promise<void> {
  const unanswered = () =>
    fetch(url, { method: "HEAD" }).then(
      () => false,
      () => true,
    );
  await until(unanswered, `${url} to stop answering after npm start ended`, ms);
}

describe("README quick start", () => {
  it("lists the commands it shows, each run against `npm start`", async () => {
    const commands = blocks("## Quick start", "sh")[0]
      ?.split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => line.startsWith("npx mcpkit call http://127.0.0.1:3000/mcp"));
    expect(commands?.length).toBe(4);
    const outputs: string[] = [];
    for (const line of commands ?? []) {
      const args = words(line.replace("http://127.0.0.1:3000/mcp", url)).slice(2); // drop "npx mcpkit"
      const { stdout } = await run(process.execPath, [CLI, ...args], { timeout: 15_000 });
      outputs.push(stdout);
    }
    expect(outputs[0]).toContain("mcpkit-workspace");
    expect(outputs[1]).toContain("read_query(sql: string");
    expect(JSON.parse(outputs[2] as string)).toMatchObject({
      columns: ["name"],
      rows: [[expect.any(String)], [expect.any(String)], [expect.any(String)]],
    });
    expect(outputs[3]).toMatch(/[0-9a-f]{7}/); // commit hashes of this clone
  }, 60_000);

  // After the commands above: it stops the server they use.
  it("ends the server when npm start gets SIGTERM (no server left running on the port)", async () => {
    const npm = server as ChildProcess;
    const exited = new Promise((resolve) => npm.once("exit", resolve));
    npm.kill("SIGTERM"); // npm alone, as a process manager stops it, not its group
    await exited;
    await refused(url, 10_000);
  }, 30_000);

  it("configures Claude Desktop with a command that serves the workspace over stdio", async () => {
    const config = JSON.parse(blocks("## Quick start", "json")[0] as string) as {
      mcpServers: { workspace: { command: string; args: string[] } };
    };
    const { command, args } = config.mcpServers.workspace;
    expect(command).toBe("node");
    const real = args.map((a) =>
      a
        .replace("/path/to/mcpkit/", ROOT)
        .replace("/path/to/folder", fileURLToPath(new URL("../../docs", import.meta.url))),
    );
    const client = new Client({ name: "claude-desktop-stand-in", version: "1" });
    await client.connect(stdioClientTransport({ command: process.execPath, args: real }));
    try {
      const listed = await client.callTool("list_directory", {});
      expect(JSON.stringify(listed.content)).toContain("workspace.md");
    } finally {
      await client.close();
    }
  }, 30_000);
});
