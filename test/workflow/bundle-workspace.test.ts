import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../../scripts/node-runtime.mjs";
import { requireBuild } from "../cli-call/helpers.js";
import { CLI_BIN, REPO_ROOT, scratch } from "./helpers.js";

// The workspace bundle answers SQL on every Node.js its manifest names, whichever Node.js
// packed it: packed on Node 20 (its better-sqlite3 built for 20), it runs on 24 through
// node:sqlite; packed on Node 24, it runs on 20 through that better-sqlite3 and on 22
// through node:sqlite. Before, its SQLite was the packing Node's alone: on Node 24 the SQL
// tools answered "SQLite is unavailable".

const MCPB = join(REPO_ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
let space: ReturnType<typeof scratch>;
const bundles: Record<number, { dir: string; manifest: Manifest; stdout: string }> = {};

interface Manifest {
  compatibility: { runtimes: { node: string }; platforms?: string[] };
  server: { entry_point: string };
}

/** `mcpkit bundle workspace` run by Node `major`, unpacked and validated by the official tool. */
async function pack(major: number): Promise<void> {
  const folder = join(space.dir, `packed-on-${major}`);
  mkdirSync(folder);
  const run = await promisify(execFile)(nodeRuntime(major), [CLI_BIN, "bundle", "workspace", "--out", "ws.mcpb"], {
    cwd: folder,
    timeout: 120_000,
  });
  const dir = join(folder, "unpacked");
  await promisify(execFile)(process.execPath, [MCPB, "unpack", join(folder, "ws.mcpb"), dir]);
  const validated = await promisify(execFile)(process.execPath, [MCPB, "validate", join(dir, "manifest.json")]);
  expect(validated.stdout).toContain("Manifest schema validation passes!");
  bundles[major] = { dir, manifest: JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")), stdout: run.stdout };
}

beforeAll(async () => {
  requireBuild();
  space = scratch("bundle-workspace");
  writeFileSync(join(space.dir, "notes.txt"), "hello\n");
  await pack(20);
  await pack(24);
}, 300_000);
afterAll(() => space.remove());

describe("the workspace bundle", () => {
  it("names the Node.js versions it runs SQL on, and how, whichever Node.js packed it", () => {
    for (const major of [20, 24]) {
      const { manifest, stdout } = bundles[major] as (typeof bundles)[number];
      // better-sqlite3 here is this clone's, built for Node 20: it serves 20, node:sqlite the rest.
      expect(manifest.compatibility).toEqual({
        runtimes: { node: "^20.0.0 || ^22.16.0 || >=24.0.0" },
        platforms: [process.platform],
      });
      expect(stdout).toMatch(
        /SQL on Node\.js \^20\.0\.0 \|\| \^22\.16\.0 \|\| >=24\.0\.0: better-sqlite3 \(built for Node\.js 20 on \w+\) on 20, node:sqlite on the others/,
      );
      expect(stdout).toMatch(/server\/node_modules\/better-sqlite3\//);
    }
  });

  it.each([
    [20, 24, "node:sqlite"],
    [24, 20, "better-sqlite3"],
    [24, 22, "node:sqlite"],
  ])("packed on Node %i, answers SQL on Node %i (%s)", async (packedOn, runOn, engine) => {
    const { dir, manifest } = bundles[packedOn] as (typeof bundles)[number];
    const transport = stdioClientTransport({
      command: nodeRuntime(runOn),
      args: [join(dir, manifest.server.entry_point), "--root", space.dir],
      stderr: "pipe",
    });
    const client = new Client({ name: "claude-desktop-stand-in", version: "1", timeoutMs: 20_000 });
    await client.connect(transport);
    // The stream exists once the process does; what it wrote before waits to be read.
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    try {
      const answer = await client.callTool("read_query", {
        sql: "SELECT name FROM customers WHERE id = ?",
        params: [1],
      });
      expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
      expect(answer.structuredContent).toEqual({ columns: ["name"], rows: [["Ada Lovelace"]], truncated: false });
      const write = await client.callTool("read_query", { sql: "DELETE FROM orders" });
      expect(JSON.stringify(write.content)).toMatch(/read_query is read-only/);
      expect(client.instructions).toMatch(/SQLite: the built-in sample database/);
      expect(stderr).toMatch(new RegExp(`sql engine: SQLite 3\\.\\d+\\.\\d+ through ${engine}`));
    } finally {
      await client.close();
    }
  });
});
