import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createServer } from "../../src/server/index.js";
import { modernPeer } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

const ALL = { elicitation: {}, sampling: {}, roots: {} };

function server(options: { requestStateTtlMs?: number; onError?: (error: unknown) => void } = {}) {
  const s = createServer({ name: "mrtr", version: "1", ...options });
  s.tool("book", { input: z.object({ date: z.string() }) }, async ({ date }, ctx) => {
    const ok = await ctx.elicit({ message: `Book ${date}?`, schema: z.object({ confirm: z.boolean() }) });
    return ok.action === "accept" && ok.content?.confirm ? `booked ${date}` : "not booked";
  });
  s.tool("two_steps", {}, async (_a, ctx) => {
    const a = await ctx.elicit({
      key: "first",
      message: "First?",
      schema: { type: "object", properties: { v: { type: "string" } } },
    });
    const b = await ctx.elicit({
      key: "second",
      message: "Second?",
      schema: { type: "object", properties: { v: { type: "string" } } },
    });
    return `${a.content?.v}+${b.content?.v}`;
  });
  s.tool("all_at_once", {}, async (_a, ctx) => {
    const [answer, sampled, roots] = await Promise.all([
      ctx.elicit({ message: "Name?", schema: { type: "object", properties: { name: { type: "string" } } } }),
      ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }),
      ctx.listRoots(),
    ]);
    return `${answer.content?.name}/${sampled.model}/${roots.length}`;
  });
  s.prompt("ask_prompt", {}, async (_a, ctx) => {
    const r = await ctx.elicit({
      key: "topic",
      message: "Topic?",
      schema: { type: "object", properties: { t: { type: "string" } } },
    });
    return `Write about ${r.content?.t}`;
  });
  s.prompt(
    "completes",
    {
      args: { x: {} },
      complete: {
        x: async (_value, { ctx }) => {
          await ctx.elicit({ message: "?", schema: { type: "object", properties: {} } });
          return [];
        },
      },
    },
    () => "",
  );
  return s;
}

type Result = Record<string, unknown> & {
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
};

describe("2026-07-28 multi round-trip requests", () => {
  it("turns ctx.elicit into an input_required result, and the retried request finishes the handler", async () => {
    const { call } = await modernPeer(server());
    const first = (await call("tools/call", { name: "book", arguments: { date: "Friday" } }, ALL)).result as Result;
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests).toEqual({
      "elicit-1": {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Book Friday?",
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
        },
      },
    });
    expect(first.requestState).toEqual(expect.any(String));
    const done = await call(
      "tools/call",
      {
        name: "book",
        arguments: { date: "Friday" },
        inputResponses: { "elicit-1": { action: "accept", content: { confirm: true } } },
        requestState: first.requestState,
      },
      ALL,
    );
    expect(done.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "booked Friday" }] });
  });

  it("collects requests made together into one round, and keeps answers across rounds in the signed state", async () => {
    const { call } = await modernPeer(server());
    const together = (await call("tools/call", { name: "all_at_once" }, ALL)).result as Result;
    expect(Object.keys(together.inputRequests ?? {}).sort()).toEqual(["elicit-1", "roots-1", "sample-1"]);
    const answered = await call(
      "tools/call",
      {
        name: "all_at_once",
        inputResponses: {
          "elicit-1": { action: "accept", content: { name: "Ada" } },
          "sample-1": { role: "assistant", content: { type: "text", text: "hello" }, model: "m1" },
          "roots-1": { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] },
        },
        requestState: together.requestState,
      },
      ALL,
    );
    expect(answered.result?.content).toEqual([{ type: "text", text: "Ada/m1/2" }]);

    const round1 = (await call("tools/call", { name: "two_steps" }, ALL)).result as Result;
    expect(Object.keys(round1.inputRequests ?? {})).toEqual(["first"]);
    const round2 = (
      await call(
        "tools/call",
        {
          name: "two_steps",
          inputResponses: { first: { action: "accept", content: { v: "a" } } },
          requestState: round1.requestState,
        },
        ALL,
      )
    ).result as Result;
    expect(Object.keys(round2.inputRequests ?? {})).toEqual(["second"]);
    expect(round2.requestState).not.toBe(round1.requestState);
    // Only the new answer is sent: the first travels in the signed state.
    const round3 = await call(
      "tools/call",
      {
        name: "two_steps",
        inputResponses: { second: { action: "accept", content: { v: "b" } } },
        requestState: round2.requestState,
      },
      ALL,
    );
    expect(round3.result?.content).toEqual([{ type: "text", text: "a+b" }]);
  });

  it("asks again when an answer is missing, and ignores answers nobody asked for", async () => {
    const { call } = await modernPeer(server());
    const wrongKey = (
      await call("tools/call", { name: "two_steps", inputResponses: { other: { action: "accept" } } }, ALL)
    ).result as Result;
    expect(wrongKey.resultType).toBe("input_required");
    expect(Object.keys(wrongKey.inputRequests ?? {})).toEqual(["first"]);
  });

  it("rejects tampered, expired and transplanted state with -32602", async () => {
    vi.useFakeTimers({ toFake: ["Date"] }); // the state's clock moves only when the test moves it
    const { call } = await modernPeer(server({ requestStateTtlMs: 50 }));
    const first = (await call("tools/call", { name: "two_steps" }, ALL)).result as Result;
    const state = first.requestState as string;
    const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
    const bad = await call("tools/call", { name: "two_steps", requestState: tampered }, ALL);
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringContaining("integrity") });
    // A payload that would pass every other check (same request, fresh) with answers added:
    // only the signature stops it.
    const [body, signature] = state.split(".") as [string, string];
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body, "base64url").toString("utf8")),
        answers: { first: { action: "accept", content: { v: "forged" } } },
      }),
    ).toString("base64url");
    expect(
      (await call("tools/call", { name: "two_steps", requestState: `${forged}.${signature}` }, ALL)).error,
    ).toMatchObject({ code: -32602, message: expect.stringContaining("integrity") });
    const elsewhere = await call("tools/call", { name: "book", arguments: { date: "x" }, requestState: state }, ALL);
    expect(elsewhere.error).toMatchObject({ code: -32602, message: expect.stringContaining("different request") });
    vi.setSystemTime(Date.now() + 49);
    const fresh = (await call("tools/call", { name: "two_steps", requestState: state }, ALL)).result as Result;
    expect(fresh.resultType).toBe("input_required");
    vi.setSystemTime(Date.now() + 2);
    const expired = await call("tools/call", { name: "two_steps", requestState: state }, ALL);
    expect(expired.error).toMatchObject({ code: -32602, message: expect.stringContaining("expired") });
  });

  it("refuses malformed answers with -32602", async () => {
    const { call } = await modernPeer(server());
    expect((await call("tools/call", { name: "two_steps", inputResponses: 5 }, ALL)).error).toMatchObject({
      code: -32602,
    });
    const notAnAnswer = await call("tools/call", { name: "two_steps", inputResponses: { first: 12345 } }, ALL);
    expect(notAnAnswer.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('inputResponses["first"]'),
    });
  });

  it("answers -32021 with the capability when the client did not declare it", async () => {
    const { call } = await modernPeer(server());
    const response = await call("tools/call", { name: "book", arguments: { date: "x" } }, { sampling: {} });
    expect(response.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it("works for prompts/get, and not for methods that may not ask (completion)", async () => {
    const errors: unknown[] = [];
    const { call } = await modernPeer(server({ onError: (e) => errors.push(e) }));
    const first = (await call("prompts/get", { name: "ask_prompt" }, ALL)).result as Result;
    expect(Object.keys(first.inputRequests ?? {})).toEqual(["topic"]);
    const done = await call(
      "prompts/get",
      {
        name: "ask_prompt",
        inputResponses: { topic: { action: "accept", content: { t: "owls" } } },
        requestState: first.requestState,
      },
      ALL,
    );
    expect(done.result?.messages).toEqual([{ role: "user", content: { type: "text", text: "Write about owls" } }]);
    // A completer asking for input is a server bug: reported to onError, an internal error on the wire.
    const completion = await call(
      "completion/complete",
      { ref: { type: "ref/prompt", name: "completes" }, argument: { name: "x", value: "" } },
      ALL,
    );
    expect(completion.error).toEqual({ code: -32603, message: "Internal error" });
    expect(errors.map(String).join()).toContain("only tools/call, prompts/get and resources/read");
  });
});
