import { describe, expect, it } from "vitest";
import type { McpServer } from "../../src/server/index.js";
import { type LoggedMessage, recordingFromLog } from "../../src/testing/convert/from-log.js";
import { replay } from "../../src/testing/replay/replay.js";
import { formatReplay } from "../../src/testing/replay/results.js";
import { loggedClient, testServer } from "./fixture-server.js";

// replay() against servers in this process, in both eras: a session is recorded from a real
// client's protocol log, then played against the same server and against ones that answer
// differently. (test/testkit runs the same over stdio and HTTP with real processes.)

/** A client session against `server`, as a protocol log: what a client's inspector keeps. */
async function session(server: McpServer, protocolVersion: "2025-11-25" | "2026-07-28"): Promise<LoggedMessage[]> {
  const { client, log } = await loggedClient(server, protocolVersion);
  await client.callTool("add", { a: 2, b: 3 });
  await client.callTool("count", { n: 2 }, { onprogress: () => {} });
  await client.callTool("confirm", { what: "the order" });
  await client.callTool("stamp", {});
  await client.readResource("info://about");
  await client.close();
  return log;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("replaying a %s session", (revision) => {
  it("finds the server answering as recorded: timestamps, ids and request state aside", async () => {
    const { entries } = recordingFromLog(await session(testServer(), revision));
    const result = await replay(entries, testServer());
    expect(result.differences).toEqual([]);
    expect(result.ok).toBe(true);
    expect(formatReplay(result)).toMatch(/: the server answered as recorded\.\n$/);
  });

  it("finds a wrong answer, and says where it differs", async () => {
    const { entries } = recordingFromLog(await session(testServer(), revision));
    const result = await replay(entries, testServer({ sum: (a, b) => a + b + 1 }));
    expect(result.ok).toBe(false);
    expect(result.differences).toEqual([
      {
        where: expect.stringMatching(/^answer to tools\/call "add" \(id \d+\)$/),
        message: "differs",
        details: [
          { pointer: "/result/structuredContent/sum", recorded: 5, replayed: 6, message: "recorded 5, replayed 6" },
          {
            pointer: "/result/content/0/text",
            recorded: "the sum is 5",
            replayed: "the sum is 6",
            message: 'recorded "the sum is 5", replayed "the sum is 6"',
          },
        ],
      },
    ]);
    expect(formatReplay(result)).toContain("     /result/structuredContent/sum: recorded 5, replayed 6\n");
  });

  it("answers the server's question from the recording, and finds a different question", async () => {
    const { entries } = recordingFromLog(await session(testServer(), revision));
    const result = await replay(entries, testServer({ question: "Really" }));
    const pointer = revision === "2026-07-28" ? "/result/inputRequests/elicit-1/params/message" : "/params/message";
    expect(result.differences.flatMap((d) => d.details.map((x) => [x.pointer, x.recorded, x.replayed]))).toEqual([
      [pointer, "Confirm the order?", "Really the order?"],
    ]);
  });

  it("ignores what --ignore names", async () => {
    const { entries } = recordingFromLog(await session(testServer(), revision));
    const result = await replay(entries, testServer({ sum: () => 0 }), {
      ignore: ["/result/structuredContent/sum", "/result/content/*/text"],
    });
    expect(result.differences).toEqual([]);
  });
});

describe("replay", () => {
  it("says what the server did not send, and what it sent that the recording lacks", async () => {
    const { entries } = recordingFromLog(await session(testServer(), "2025-11-25"));
    // The same server, but its count sends no progress and logs twice.
    const result = await replay(entries, testServer({ quietCount: true }), { timeoutMs: 2000 });
    expect(result.differences.map((d) => `${d.where}: ${d.message}`)).toEqual([
      "notification notifications/progress #1: missing: the server did not send it",
      "notification notifications/progress #2: missing: the server did not send it",
      'notification notifications/message #2: not in the recording: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"again"}}',
    ]);
  });

  it("refuses a recording that is not one, saying which line", async () => {
    const { parseRecording } = await import("../../src/testing/replay/recording.js");
    expect(() => parseRecording('{"t":0,"from":"client","message":{}}\nnot json\n', "rec.jsonl")).toThrow(
      /^rec.jsonl, line 2: not JSON/,
    );
    expect(() => parseRecording('{"t":0,"from":"someone","message":{}}', "rec.jsonl")).toThrow(
      /rec.jsonl, line 1: not a recording entry/,
    );
    expect(() => parseRecording("\n\n", "rec.jsonl")).toThrow(/rec.jsonl holds no messages/);
  });
});
