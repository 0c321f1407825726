import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, MCPKIT_BIN } from "../interop/helpers.js";

// The task bounds as `mcpkit serve everything` flags, on a real process.

const children: ChildProcess[] = [];
const clients: Client[] = [];
beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function run(args: string[]) {
  const child = spawn(process.execPath, [MCPKIT_BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, stderr: () => stderr, exited };
}

describe("serve everything: task bounds", () => {
  it("--max-tasks-per-client and --max-task-ttl bound the tasks one client makes", async () => {
    const served = run(["serve", "everything", "--port", "0", "--max-tasks-per-client", "2", "--max-task-ttl", "90s"]);
    const port = await new Promise<string>((resolve, reject) => {
      served.child.stderr?.on("data", () => {
        const match = /serving MCP on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(served.stderr());
        if (match) resolve(match[1] as string);
      });
      served.exited.then(() => reject(new Error(served.stderr())));
    });
    const client = new Client({ name: "bounds", version: "1", protocolVersion: "2026-07-28" });
    await client.connect(streamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
    clients.push(client);
    const first = await client.callToolAsTask("slow_compute", { seconds: 60, label: "a" });
    expect(first.task?.latest?.ttlMs).toBe(90_000);
    await client.callToolAsTask("slow_compute", { seconds: 60, label: "b" });
    await expect(client.callToolAsTask("slow_compute", { seconds: 60, label: "c" })).rejects.toMatchObject({
      code: -32600,
      data: { reason: "too-many-tasks", limit: 2 },
    });
  }, 30_000);

  it("refuses a bound that is not a positive number or a duration", async () => {
    for (const [flag, value] of [
      ["--max-tasks-per-client", "0"],
      ["--max-task-result-bytes", "lots"],
      ["--task-ttl", "forever"],
    ]) {
      const refused = run(["serve", "everything", "--port", "0", flag as string, value as string]);
      expect(await refused.exited).toBe(2);
      expect(refused.stderr()).toContain(flag);
    }
  });
});
