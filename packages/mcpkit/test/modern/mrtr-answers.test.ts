import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/index.js";
import { modernPeer } from "./helpers.js";

// A retried 2026-07-28 request carries answers the client wrote: each must have the shape
// of the result it stands for (mrtr §Error Handling) before a handler sees it, and the
// round's own fields must be what they claim. A malformed one is -32602, naming the key.

const ALL = { elicitation: {}, sampling: {}, roots: {} };

function server() {
  const s = createServer({ name: "answers", version: "1" });
  s.tool("ask", {}, async (_a, ctx) => {
    const r = await ctx.elicit({ key: "q", message: "?", schema: { type: "object", properties: {} } });
    return JSON.stringify(r);
  });
  s.tool("sample", {}, async (_a, ctx) => {
    const r = await ctx.sample(
      { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 },
      { key: "s" },
    );
    return r.role;
  });
  s.tool("roots", {}, async (_a, ctx) => String((await ctx.listRoots()).length));
  return s;
}

async function answer(tool: string, key: string, value: unknown) {
  const { call } = await modernPeer(server());
  return call("tools/call", { name: tool, inputResponses: { [key]: value } }, ALL);
}

const invalid = (key: string, method: string, problem: string) => ({
  code: -32602,
  message: `Invalid params: inputResponses["${key}"] is not a valid answer to ${method}: ${problem}`,
});

describe("answers to input requests", () => {
  it("refuses an elicitation answer without a known action, or whose content is not an object", async () => {
    for (const bad of [{}, { action: "maybe" }, { action: "" }]) {
      expect((await answer("ask", "q", bad)).error).toEqual(
        invalid("q", "elicitation/create", 'its "action" must be accept, decline or cancel'),
      );
    }
    for (const bad of [
      { action: "accept", content: "yes" },
      { action: "accept", content: null },
    ]) {
      expect((await answer("ask", "q", bad)).error).toEqual(
        invalid("q", "elicitation/create", '"content" must be an object'),
      );
    }
    for (const action of ["accept", "decline", "cancel"]) {
      expect((await answer("ask", "q", { action })).result).toMatchObject({ resultType: "complete" });
    }
    expect((await answer("ask", "q", { action: "accept", content: { a: 1 } })).result).toMatchObject({
      content: [{ type: "text", text: '{"action":"accept","content":{"a":1}}' }],
    });
  });

  it("refuses a sampling answer without a role or without content", async () => {
    for (const bad of [{ content: { type: "text", text: "x" } }, { role: "assistant" }, { role: 1, content: {} }]) {
      expect((await answer("sample", "s", bad)).error).toEqual(
        invalid("s", "sampling/createMessage", 'it needs "role" and "content"'),
      );
    }
    const good = { role: "assistant", content: { type: "text", text: "x" }, model: "m" };
    expect((await answer("sample", "s", good)).result).toMatchObject({
      content: [{ type: "text", text: "assistant" }],
    });
  });

  it("refuses a roots answer without a roots array", async () => {
    for (const bad of [{}, { roots: "file:///a" }]) {
      expect((await answer("roots", "roots-1", bad)).error).toEqual(
        invalid("roots-1", "roots/list", 'it needs a "roots" array'),
      );
    }
    expect((await answer("roots", "roots-1", { roots: [{ uri: "file:///a" }] })).result).toMatchObject({
      content: [{ type: "text", text: "1" }],
    });
  });

  it("refuses an answer that is not an object: null, an array, a string", async () => {
    for (const bad of [null, [], "accept"]) {
      expect((await answer("ask", "q", bad)).error).toEqual(invalid("q", "elicitation/create", "it is not an object"));
    }
  });
});

describe("the round's own fields", () => {
  it('refuses "inputResponses" that is not an object of answers: null, an array, a number', async () => {
    const { call } = await modernPeer(server());
    for (const inputResponses of [null, [], 5]) {
      expect((await call("tools/call", { name: "ask", inputResponses }, ALL)).error).toEqual({
        code: -32602,
        message: 'Invalid params: "inputResponses" must be an object of results by key',
      });
    }
  });

  it('refuses a "requestState" that is not a string', async () => {
    const { call } = await modernPeer(server());
    for (const requestState of [5, {}, null]) {
      expect((await call("tools/call", { name: "ask", requestState }, ALL)).error).toEqual({
        code: -32602,
        message: 'Invalid params: "requestState" must be a string',
      });
    }
  });
});
