import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

// 2026-07-28 multi round-trip requests over authenticated HTTP: the requestState a caller
// receives is bound to that caller (basic/patterns/mrtr §Security), so another caller who
// obtains it cannot finish the request with answers of its own.

const fixture = perTestAuthorizationServer();
const MODERN = "2026-07-28";

function server() {
  const s = createServer({ name: "approvals", version: "1" });
  s.tool("transfer", {}, async (_a, ctx) => {
    const answer = await ctx.elicit({
      key: "confirm",
      message: "Transfer the funds?",
      schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return answer.content?.ok ? `transferred for ${(ctx.auth as { subject?: string }).subject}` : "kept";
  });
  return s;
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

/** One 2026-07-28 tools/call POST as the holder of `token`. */
async function callTransfer(url: string, token: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const params = {
    name: "transfer",
    arguments: {},
    ...extra,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      "io.modelcontextprotocol/clientInfo": { name: "binding-test", version: "1" },
    },
  };
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "transfer",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return JSON.parse(text) as Answer;
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as Answer & { id?: unknown });
  return data.find((message) => message.id === 1) as Answer;
}

describe("a 2026-07-28 requestState over authenticated HTTP", () => {
  it("finishes the request only for the caller it was given to", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const alice = await as.sign({ sub: "alice", scope: "tools:read" }, { audience: mcp.url });
    const mallory = await as.sign({ sub: "mallory", scope: "tools:read" }, { audience: mcp.url });

    const first = await callTransfer(mcp.url, alice);
    expect(first.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    const requestState = first.result?.requestState as string;
    const answers = { inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState };

    const replayed = await callTransfer(mcp.url, mallory, answers);
    expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringContaining("different caller") });

    const finished = await callTransfer(mcp.url, alice, answers);
    expect(finished.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "transferred for alice" }],
    });
  });
});
