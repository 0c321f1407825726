import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer, type McpServer } from "mcpkit/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { KEY, MCPKIT_SERVER, requireBuild, start, stopAll, Terminal, until } from "./helpers.js";

// How `mcpkit call … watch` ends. Ctrl+C is how a person stops it: it ends quietly with 0
// (docs/cli.md), whether the Ctrl+C reaches only mcpkit (a signal sent to it) or, from a
// terminal, the stdio server it started as well. A server that ends the subscription
// itself is said to have done so. Real processes; the HTTP servers run in this process.

let served: { server: McpServer; listening: Listening } | undefined;

beforeAll(requireBuild);
afterEach(async () => {
  await stopAll();
  await served?.listening.close();
  served = undefined;
});

/** A server with a tool (so it can say its tools changed), on a free port. */
async function serve(): Promise<string> {
  const server = createServer({ name: "watched", version: "1" });
  server.tool("ping", {}, () => "pong");
  const handler = createStreamableHttpHandler(server);
  served = { server, listening: await listen(handler) };
  return new URL("/mcp", served.listening.url).href;
}

const WATCHING = "Ctrl+C to stop";

describe("mcpkit call … watch", () => {
  for (const protocol of ["2026-07-28", "2025-11-25"]) {
    it(`over HTTP (${protocol}): SIGINT ends it quietly with 0, never as the server ending it`, async () => {
      const url = await serve();
      const watch = start(["call", "--protocol", protocol, url, "watch"]);
      await until(() => watch.stderr.includes(WATCHING), 10_000, `the watch to start:\n${watch.stderr}`);
      watch.child.kill("SIGINT");
      const run = await watch.done;
      expect(run.code).toBe(0);
      expect(run.stderr.trim().split("\n")).toEqual(["Watching tools; Ctrl+C to stop"]);
      expect(run.stdout).toBe("");
    });
  }

  it("of a stdio server, Ctrl+C at the terminal (which stops the server too) ends it quietly with 0", async () => {
    const terminal = new Terminal(["call", "watch", "--", ...MCPKIT_SERVER]);
    await terminal.expect(WATCHING, 15_000);
    terminal.type(KEY.ctrlC);
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(terminal.text).not.toMatch(/ended the subscription|subscription was lost/);
  });

  it("says so when the server ends the subscription (exit 0)", async () => {
    const url = await serve();
    const watch = start(["call", url, "watch"]);
    await until(() => watch.stderr.includes(WATCHING), 10_000, `the watch to start:\n${watch.stderr}`);
    await served?.server.close();
    const run = await watch.done;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("The server ended the subscription");
  });
});
