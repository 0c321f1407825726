import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpuOver, groupMembers, treeCpuSeconds } from "./cpu.js";
import {
  type Connected,
  call,
  closeAll,
  connectStdio,
  MCPKIT_BIN,
  SERVER_NODE,
  textOf,
  waitFor,
  within,
} from "./helpers.js";

// Issue #17, defect 2: a statement that was stopped must really stop. Before, a timed-out
// or cancelled read_query kept burning a core in a thread no one could end, and the server
// never exited once its client went. Measured on the real binary, from /proc.

const ENDLESS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n";

/** Waits until the server's process tree has burned `seconds` more CPU: the statement runs. */
async function running(pid: number, seconds = 0.2): Promise<void> {
  const start = treeCpuSeconds(pid);
  await waitFor(() => treeCpuSeconds(pid) - start >= seconds, "the statement to run", 10_000);
}

describe("a stopped SQL statement frees the CPU", () => {
  let server: Connected;

  beforeAll(async () => {
    server = await connectStdio(["--query-timeout", "250"]);
  }, 20_000);
  afterAll(closeAll);

  it("ten endless queries, each timed out: the server's CPU is idle after the last answer", async () => {
    for (let i = 0; i < 10; i++) {
      const result = await call(server.client, "read_query", { sql: ENDLESS });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/ran longer than 250 ms and was stopped/);
    }
    // Idle is well under a tenth of a core; one statement left running would take a whole one.
    expect(await cpuOver(server.pid as number, 1000)).toBeLessThan(0.3);
    const next = await call(server.client, "read_query", { sql: "SELECT count(*) AS n FROM customers" });
    expect(next.structuredContent).toMatchObject({ rows: [[5]] });
  }, 60_000);

  it("a cancelled query stops too", async () => {
    // A time limit of ten minutes: only the cancellation can end these statements in time.
    const patient = await connectStdio(["--query-timeout", "600000"]);
    const pid = patient.pid as number;
    for (let i = 0; i < 3; i++) {
      const abort = new AbortController();
      const answer = patient.client.callTool("read_query", { sql: `${ENDLESS} -- ${i}` }, { signal: abort.signal });
      await running(pid, 0.1);
      abort.abort(new Error("cancelled by the test"));
      await expect(answer).rejects.toThrow(/cancelled by the test/);
      expect(await cpuOver(pid, 1000)).toBeLessThan(0.3);
    }
  }, 60_000);
});

describe("closing stdin ends the server", () => {
  it("within 2 s, its whole process group too, even in the middle of an endless statement", async () => {
    const child = spawn(SERVER_NODE, [MCPKIT_BIN, "serve", "workspace", "--query-timeout", "600000"], {
      stdio: ["pipe", "pipe", "ignore"],
      detached: true, // A process group of its own, to be counted afterwards.
    });
    const pid = child.pid as number;
    try {
      let out = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
      });
      const send = (message: object) => child.stdin?.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      });
      await waitFor(() => out.includes('"id":1'), "the initialize answer", 10_000);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "read_query", arguments: { sql: ENDLESS } },
      });
      await running(pid, 0.3);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const closedAt = Date.now();
      child.stdin?.end();
      await within(exited, 2000, "the server to exit once stdin closed");
      await waitFor(() => groupMembers(pid).length === 0, "its process group to empty", 2000 - (Date.now() - closedAt));
    } finally {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
    }
  }, 30_000);
});
