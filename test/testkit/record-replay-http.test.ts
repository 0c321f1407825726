import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { parseRecording } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpkit, type Running, requireBuild, start, stopAll, until } from "../cli-call/helpers.js";
import { calc, calcOverHttp, EVERYTHING, everything, type Revision, recordingClient, stopServers } from "./helpers.js";

// mcpkit record --port P URL and mcpkit replay FILE URL, with real processes on 127.0.0.1:
// the calculator over Streamable HTTP, the relay in front of it, clients of both eras
// through the relay; each session in its own file, replayed against the calculator and
// against one that adds wrong.

let dir: string;
let upstream: { url: string; stop: () => Promise<void> };
let relay: Running;
let relayUrl: string;

const TOKEN = "relay-token-0123456789";

/** A session of everything through the relay, as a client of `revision` (auto: it finds out). */
async function session(revision: Revision | undefined, url = relayUrl) {
  const client = recordingClient(revision);
  await client.connect(streamableHttpClientTransport(url, { headers: { authorization: `Bearer ${TOKEN}` } }));
  const said = await everything(client);
  // A token the client echoes in a message is left out of the recording like the header itself.
  await client.callTool("echo", { text: `my token is ${TOKEN}` });
  await client.close();
  return said;
}

const recorded = (file: string) => parseRecording(readFileSync(join(dir, file), "utf8"));
const methodsOf = (file: string) =>
  recorded(file).map((e) => `${e.from} ${(e.message as { method?: string }).method ?? "answer"}`);

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-http-record-"));
  upstream = await calcOverHttp();
  relay = start(["record", "--out", join(dir, "session.jsonl"), "--port", "0", upstream.url]);
  await until(() => relay.stdout.includes("\n"), 10_000, "the relay to print its URL");
  relayUrl = relay.stdout.trim();
}, 30_000);

afterAll(async () => {
  await stopAll();
  await stopServers();
  rmSync(dir, { recursive: true, force: true });
});

describe("the HTTP relay", () => {
  it("listens on 127.0.0.1, at the upstream's path", () => {
    expect(relayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(relay.stderr).toContain(`mcpkit record: relaying ${relayUrl} to ${upstream.url}`);
  });

  it("relays a 2025-11-25 session unchanged and records it in its own file: the one its session id names", async () => {
    expect(await session("2025-11-25")).toEqual(EVERYTHING);
    await until(() => relay.stderr.includes("session.jsonl"), 5000, "the first session's file");
    const methods = methodsOf("session.jsonl");
    expect(methods.slice(0, 3)).toEqual(["client initialize", "server answer", "client notifications/initialized"]);
    for (const asked of ["elicitation/create", "sampling/createMessage", "roots/list", "notifications/progress"])
      expect(methods).toContain(`server ${asked}`);
    expect(statSync(join(dir, "session.jsonl")).mode & 0o777).toBe(0o600);
  });

  it("records a 2026-07-28 session, which has no session id, from its discovery: the next file", async () => {
    expect(await session("2026-07-28")).toEqual(EVERYTHING);
    await until(() => relay.stderr.includes("session-2.jsonl"), 5000, "the second session's file");
    const methods = methodsOf("session-2.jsonl");
    expect(methods.slice(0, 2)).toEqual(["client server/discover", "server answer"]);
    expect(methods.filter((m) => m === "client tools/call")).toHaveLength(10);
    // The same client discovering again starts its next session.
    expect(await session("2026-07-28")).toEqual(EVERYTHING);
    await until(() => relay.stderr.includes("session-3.jsonl"), 5000, "the third session's file");
    expect(methodsOf("session-3.jsonl")[0]).toBe("client server/discover");
  });

  it("leaves credentials out: headers are never recorded, and a token the client sent is left out of messages", () => {
    for (const file of ["session.jsonl", "session-2.jsonl", "session-3.jsonl"]) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text).not.toContain(TOKEN);
      expect(text).toContain('"text":"my token is [redacted]"');
    }
  });

  it.each([
    ["session.jsonl", "2025-11-25"],
    ["session-2.jsonl", "2026-07-28"],
  ])("replays %s (%s) against the server: exit 0; against one that adds wrong: exit 1", async (file) => {
    const same = await mcpkit(["replay", join(dir, file), upstream.url], 20_000);
    expect(same.stdout).toMatch(/the server answered as recorded/);
    expect(same.code).toBe(0);
    // And over stdio: a recording is the messages, whatever carried them.
    const stdio = await mcpkit(["replay", join(dir, file), "--", ...calc()], 20_000);
    expect(stdio.code).toBe(0);
    const buggy = await calcOverHttp("--bug=sum");
    try {
      const wrong = await mcpkit(["replay", join(dir, file), buggy.url], 20_000);
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toContain("     /result/structuredContent/sum: recorded 5, replayed 6\n");
    } finally {
      await buggy.stop();
    }
  });

  it("does not record a legacy client's probe: a 2026-07-28 discovery the server refused", async () => {
    const legacy = await calcOverHttp("--revisions=2025-11-25");
    const probed = start(["record", "--out", join(dir, "probe.jsonl"), "--port", "0", legacy.url]);
    try {
      await until(() => probed.stdout.includes("\n"), 10_000, "the second relay");
      // No revision given: the client discovers first, is refused, then initializes.
      expect(await session(undefined, probed.stdout.trim())).toEqual(EVERYTHING);
      await until(() => probed.stderr.includes("probe.jsonl"), 5000, "the session's file");
      expect(methodsOf("probe.jsonl")[0]).toBe("client initialize");
      expect(probed.stderr).not.toContain("probe-2.jsonl");
    } finally {
      probed.child.kill("SIGINT");
      await probed.done;
      await legacy.stop();
    }
  });
});

describe("who may reach the HTTP relay", () => {
  /** A POST to the relay with these headers: the status it answers. */
  function post(headers: Record<string, string>): Promise<number> {
    const url = new URL(relayUrl);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    });
  }

  it("refuses a Host that is not this machine's address and port (DNS rebinding)", async () => {
    const port = new URL(relayUrl).port;
    expect(await post({ host: `attacker.example:${port}` })).toBe(403);
    expect(await post({ host: "127.0.0.1:1" })).toBe(403);
    expect(await post({ host: `localhost:${port}` })).not.toBe(403);
  });

  it("refuses a web page of another origin, and takes its own", async () => {
    const port = new URL(relayUrl).port;
    expect(await post({ origin: "https://attacker.example" })).toBe(403);
    expect(await post({ origin: "http://127.0.0.1:1" })).toBe(403);
    expect(await post({ origin: `http://127.0.0.1:${port}` })).not.toBe(403);
  });

  it("relays nothing but the upstream's MCP path", async () => {
    const response = await fetch(new URL("/elsewhere", relayUrl), { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
  });

  it("ends on Ctrl+C, saying how many sessions it recorded", async () => {
    relay.child.kill("SIGINT");
    const run = await relay.done;
    expect(run.code).toBe(0);
    // The three above, and the pings let through: requests without a session id or a client's
    // _meta, which are one sessionless client's.
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe("mcpkit record: 4 sessions recorded");
    expect(methodsOf("session-4.jsonl")).toEqual(["client ping", "server answer", "client ping", "server answer"]);
  });
});
