import { afterEach, describe, expect, it } from "vitest";
import type { ClientOptions } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import type { ElicitParams } from "../../src/protocol/types/features.js";
import { cleanup, complete, connectHttp, fakeServer, META_VERSION, type Params } from "./fake-http.js";

// basic/patterns/mrtr: an input_required result is answered with the client's handlers and
// the original request is sent again with a new id, the original params, inputResponses
// and the exact requestState; the caller only sees the final result.

afterEach(cleanup);

const ELICIT = {
  method: "elicitation/create",
  params: {
    message: "Who are you?",
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer", default: 30 } },
      required: ["name"],
    },
  },
};
const SAMPLE = {
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 10 },
};
const ROOTS = { method: "roots/list" };

const handlers: Partial<ClientOptions> = {
  elicitation: () => ({ action: "accept", content: { name: "octocat" } }),
  sampling: (params) => ({
    role: "assistant",
    model: "test-model",
    content: { type: "text", text: `answer to ${JSON.stringify(params.messages[0]?.content)}` },
  }),
  roots: [{ uri: "file:///home/me/project", name: "work" }],
};

/** A tool that asks for input on its first attempt, then answers with what it got. */
function oneRound(inputRequests: Record<string, unknown> | undefined, requestState?: string) {
  return (params: Params) => {
    if (!params.inputResponses && params.requestState === undefined)
      return {
        resultType: "input_required",
        ...(inputRequests && { inputRequests }),
        ...(requestState !== undefined && { requestState }),
      };
    return complete({
      content: [
        { type: "text", text: JSON.stringify({ responses: params.inputResponses, state: params.requestState }) },
      ],
    });
  };
}

describe("multi round-trip requests", () => {
  it("answers elicitation, sampling and roots, then retries with a new id, the same params and the exact state", async () => {
    const state = ' {"opaque": "state",\n "keep": "me exactly"} ';
    const server = await fakeServer({
      "tools/call": oneRound({ who: ELICIT, capital: SAMPLE, where: ROOTS }, state),
    });
    const { client } = await connectHttp(server.url, handlers);
    const result = await client.callTool("book", { date: "2026-08-01" });

    const [first, retry] = server.of("tools/call");
    expect(server.of("tools/call")).toHaveLength(2);
    expect(retry?.id).not.toBe(first?.id);
    const { _meta: firstMeta, ...firstParams } = first?.params ?? {};
    const { _meta: retryMeta, inputResponses, requestState, ...retryParams } = retry?.params ?? {};
    expect(retryParams).toEqual(firstParams);
    expect(retryMeta?.[META_VERSION]).toBe("2026-07-28");
    expect(firstMeta?.[META_VERSION]).toBe("2026-07-28");
    expect(requestState).toBe(state);
    expect(inputResponses).toEqual({
      // The schema's default fills the field the user left out (client/elicitation, SEP-1034).
      who: { action: "accept", content: { name: "octocat", age: 30 } },
      capital: {
        role: "assistant",
        model: "test-model",
        content: { type: "text", text: 'answer to {"type":"text","text":"Capital of France?"}' },
      },
      where: { roots: [{ uri: "file:///home/me/project", name: "work" }] },
    });
    // The caller sees only the final result.
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect((result as unknown as { resultType: string }).resultType).toBe("complete");
  });

  it("leaves requestState out of the retry when the server gave none", async () => {
    const server = await fakeServer({ "tools/call": oneRound({ who: ELICIT }) });
    const { client } = await connectHttp(server.url, handlers);
    await client.callTool("t", {});
    const retry = server.of("tools/call")[1];
    expect(retry?.params.inputResponses).toBeDefined();
    expect("requestState" in (retry?.params ?? {})).toBe(false);
  });

  it("retries at once with only the state when there are no input requests", async () => {
    const server = await fakeServer({ "tools/call": oneRound(undefined, "step-2") });
    const { client } = await connectHttp(server.url, handlers);
    await client.callTool("t", {});
    const retry = server.of("tools/call")[1];
    expect(retry?.params.requestState).toBe("step-2");
    expect("inputResponses" in (retry?.params ?? {})).toBe(false);
  });

  it("runs several rounds, each with only that round's answers and state", async () => {
    const server = await fakeServer({
      "tools/call": (params) => {
        if (params.requestState === undefined)
          return { resultType: "input_required", inputRequests: { step1: ELICIT }, requestState: "s1" };
        if (params.requestState === "s1")
          return { resultType: "input_required", inputRequests: { step2: SAMPLE }, requestState: "s2" };
        return complete({ content: [{ type: "text", text: "done" }] });
      },
    });
    const { client } = await connectHttp(server.url, handlers);
    expect((await client.callTool("t", {})).content).toEqual([{ type: "text", text: "done" }]);
    const calls = server.of("tools/call");
    expect(calls.map((c) => c.params.requestState)).toEqual([undefined, "s1", "s2"]);
    expect(calls.map((c) => Object.keys((c.params.inputResponses as object | undefined) ?? {}))).toEqual([
      [],
      ["step1"],
      ["step2"],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);
  });

  it("works the same for prompts/get and resources/read", async () => {
    const server = await fakeServer({
      "prompts/get": (params) =>
        params.inputResponses
          ? complete({ messages: [{ role: "user", content: { type: "text", text: "ok" } }] })
          : { resultType: "input_required", inputRequests: { who: ELICIT } },
      "resources/read": (params) =>
        params.requestState === "r"
          ? complete({ contents: [{ uri: params.uri, text: "secret" }], ttlMs: 0, cacheScope: "private" })
          : { resultType: "input_required", inputRequests: { where: ROOTS }, requestState: "r" },
    });
    const { client } = await connectHttp(server.url, handlers);
    expect((await client.getPrompt("p", { a: "1" })).messages).toHaveLength(1);
    expect((await client.readResource("file:///x")).contents).toEqual([{ uri: "file:///x", text: "secret" }]);
    expect(server.of("prompts/get")[1]?.params.arguments).toEqual({ a: "1" });
    expect(server.of("resources/read")[1]?.params.uri).toBe("file:///x");
  });

  it("treats a result without resultType (an older server's) as complete", async () => {
    const server = await fakeServer({ "tools/call": () => ({ content: [{ type: "text", text: "old" }] }) });
    const { client } = await connectHttp(server.url, handlers);
    expect((await client.callTool("t", {})).content).toEqual([{ type: "text", text: "old" }]);
    expect(server.of("tools/call")).toHaveLength(1);
  });

  it("refuses a resultType it does not know", async () => {
    const server = await fakeServer({ "tools/call": () => ({ resultType: "task", content: [] }) });
    const { client } = await connectHttp(server.url, handlers);
    await expect(client.callTool("t", {})).rejects.toThrow(/unknown resultType "task"/);
  });

  it("refuses input_required on a request that cannot ask for input, so a list never comes from a retry", async () => {
    const server = await fakeServer({
      "tools/list": () => ({ resultType: "input_required", inputRequests: { who: ELICIT } }),
    });
    const asked: unknown[] = [];
    const { client } = await connectHttp(server.url, {
      elicitation: (params) => {
        asked.push(params);
        return { action: "cancel" };
      },
    });
    await expect(client.tools()).rejects.toThrow("asked for input on tools/list");
    expect(asked).toEqual([]);
    expect(server.of("tools/list")).toHaveLength(1);
  });

  it("stops after maxInputRounds when the server keeps asking", async () => {
    const server = await fakeServer({
      "tools/call": () => ({ resultType: "input_required", inputRequests: { who: ELICIT } }),
    });
    const { client } = await connectHttp(server.url, { ...handlers, maxInputRounds: 3 });
    const error = await client.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toMatch(/still asked for input after 3 rounds/);
    expect(server.of("tools/call")).toHaveLength(3);
  });

  it("fails the call, without a retry, when the server asks for a capability the client did not declare", async () => {
    const server = await fakeServer({ "tools/call": oneRound({ capital: SAMPLE }) });
    const { client } = await connectHttp(server.url, { elicitation: handlers.elicitation });
    const error = await client.callTool("t", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toMatch(
      /asked for sampling\/createMessage \(input "capital"\), which this client did not declare/,
    );
    expect(server.of("tools/call")).toHaveLength(1);
  });

  it("refuses URL-mode elicitation unless the client declared it", async () => {
    const url = {
      method: "elicitation/create",
      params: { mode: "url", message: "Sign in", url: "https://example.com/login" },
    };
    const server = await fakeServer({ "tools/call": oneRound({ login: url }) });
    const seen: ElicitParams[] = [];
    const { client } = await connectHttp(server.url, {
      elicitation: (params) => {
        seen.push(params);
        return { action: "accept" };
      },
    });
    await expect(client.callTool("t", {})).rejects.toThrow(/URL-mode elicitation/);
    expect(seen).toEqual([]);
  });

  it("hands the handler the input key and the caller's signal", async () => {
    const server = await fakeServer({ "tools/call": oneRound({ who: ELICIT }) });
    const contexts: { requestId: unknown; inputKey?: string; aborted: boolean }[] = [];
    const controller = new AbortController();
    const { client } = await connectHttp(server.url, {
      elicitation: (_params, ctx) => {
        contexts.push({ requestId: ctx.requestId, inputKey: ctx.inputKey, aborted: ctx.signal.aborted });
        controller.abort(new Error("user closed the dialog"));
        return { action: "cancel" };
      },
    });
    await expect(client.callTool("t", {}, { signal: controller.signal })).rejects.toThrow("user closed the dialog");
    expect(contexts).toEqual([{ requestId: "who", inputKey: "who", aborted: false }]);
    // The aborted call is not retried.
    expect(server.of("tools/call")).toHaveLength(1);
  });

  it("never puts one call's input responses or state on another request sent meanwhile", async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await fakeServer({
      "tools/call": (params) => {
        if (params.name === "other") return complete({ content: [] });
        return oneRound({ who: ELICIT }, "mine")(params);
      },
    });
    let asking!: () => void;
    const asked = new Promise<void>((resolve) => {
      asking = resolve;
    });
    const { client } = await connectHttp(server.url, {
      elicitation: async () => {
        asking();
        await answered;
        return { action: "decline" };
      },
    });
    const slow = client.callTool("slow", {});
    await asked; // the slow call is between its rounds
    await client.callTool("other", {});
    release();
    await slow;
    const other = server.of("tools/call").find((c) => c.params.name === "other");
    expect(other?.params).not.toHaveProperty("inputResponses");
    expect(other?.params).not.toHaveProperty("requestState");
    const retry = server.of("tools/call").filter((c) => c.params.name === "slow")[1];
    expect(retry?.params).toMatchObject({ requestState: "mine", inputResponses: { who: { action: "decline" } } });
  });
});
