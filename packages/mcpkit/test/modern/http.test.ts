import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "../../src/server/index.js";
import { allEvents, messagesOf, serveHttp, sseEvents } from "../http-server/helpers.js";
import { within } from "../stdio/helpers.js";
import { MODERN, meta } from "./helpers.js";

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

function server() {
  const s = createServer({ name: "http-modern", version: "1" });
  s.tool(
    "route",
    {
      input: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          count: { type: "integer", "x-mcp-header": "Count" },
        },
        required: ["region"],
      },
    },
    (args) => `${args.region}:${args.count ?? "-"}`,
  );
  s.tool("needs_sampling", {}, async (_a, ctx) => (await ctx.sample({ messages: [], maxTokens: 1 })).model);
  let aborted = false;
  let started = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  let abortSeen = () => {};
  const abortedOnce = new Promise<void>((resolve) => {
    abortSeen = resolve;
  });
  s.tool("wait_for_abort", {}, (_a, ctx) => {
    started();
    ctx.progress(0, 1);
    return new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        aborted = true;
        abortSeen();
        resolve("aborted");
      });
    });
  });
  s.resource("file:///caf%C3%A9.txt", { name: "café" }, () => "coffee");
  return { s, wasAborted: () => aborted, running, aborted: abortedOnce };
}

/** A 2026-07-28 POST with the standard headers derived from the body (overridable). */
async function modernPost(
  body: { id: number; method: string; params?: Record<string, unknown> },
  headers: Record<string, string | undefined> = {},
) {
  const params = { ...body.params, _meta: meta(body.params?._meta as Record<string, unknown> | undefined) };
  const name = (params as { name?: string; uri?: string }).name ?? (params as { uri?: string }).uri;
  const all: Record<string, string | undefined> = {
    "mcp-protocol-version": MODERN,
    "mcp-method": body.method,
    ...(name !== undefined &&
      ["tools/call", "prompts/get", "resources/read"].includes(body.method) && { "mcp-name": name }),
    ...headers,
  };
  const clean = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return served?.post({ jsonrpc: "2.0", ...body, params }, clean) as Promise<Response>;
}

/** tools/call of wait_for_abort as a raw fetch the test can abort. */
const callWaitForAbort = (id: number, signal: AbortSignal, extraMeta: Record<string, unknown> = {}) =>
  fetch(served?.url as string, {
    method: "POST",
    signal,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "wait_for_abort",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "wait_for_abort", arguments: {}, _meta: { ...meta(), ...extraMeta } },
    }),
  });

describe("2026-07-28 over Streamable HTTP", () => {
  it("serves a request without a session, checking the headers against the body", async () => {
    served = await serveHttp(server().s);
    const ok = await modernPost(
      { id: 1, method: "tools/call", params: { name: "route", arguments: { region: "eu", count: 3 } } },
      { "mcp-param-region": "eu", "mcp-param-count": "3.0" },
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("mcp-session-id")).toBeNull();
    expect(await ok.json()).toMatchObject({ id: 1, result: { resultType: "complete", content: [{ text: "eu:3" }] } });

    const cases: [Record<string, string | undefined>, string][] = [
      [{ "mcp-method": "tools/list" }, "Mcp-Method"],
      [{ "mcp-method": undefined }, "Mcp-Method header is required"],
      [{ "mcp-name": "other" }, "Mcp-Name"],
      [{ "mcp-param-region": undefined }, "Mcp-Param-Region header is required"],
      [{ "mcp-param-region": "us" }, "Mcp-Param-Region"],
      [{ "mcp-param-region": "=?base64?ZXU?=" }, "not valid Base64"],
      [{ "mcp-protocol-version": undefined }, "MCP-Protocol-Version"],
    ];
    for (const [headers, message] of cases) {
      const response = await modernPost(
        { id: 2, method: "tools/call", params: { name: "route", arguments: { region: "eu" } } },
        { "mcp-param-region": "eu", ...headers },
      );
      expect(response.status, message).toBe(400);
      expect(await response.json(), message).toMatchObject({
        id: 2,
        error: { code: -32020, message: expect.stringContaining(message) },
      });
    }
    const encoded = await modernPost(
      { id: 3, method: "tools/call", params: { name: "route", arguments: { region: "eu" } } },
      { "mcp-param-region": "=?base64?ZXU=?=" },
    );
    expect(encoded.status).toBe(200);
    const uri = await modernPost({ id: 4, method: "resources/read", params: { uri: "file:///caf%C3%A9.txt" } });
    expect(await uri.json()).toMatchObject({ result: { contents: [{ text: "coffee" }] } });
  });

  it("maps protocol errors to HTTP statuses, with the request's id", async () => {
    served = await serveHttp(server().s);
    const missingMeta = await served.post(
      { jsonrpc: "2.0", id: 5, method: "tools/list", params: {} },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    );
    expect(missingMeta.status).toBe(400);
    expect(await missingMeta.json()).toMatchObject({ id: 5, error: { code: -32602 } });
    const removed = await modernPost({ id: 6, method: "ping" });
    expect(removed.status).toBe(404);
    expect(await removed.json()).toMatchObject({ id: 6, error: { code: -32601 } });
    const version = await served.post(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/list",
        params: { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      },
      { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" },
    );
    expect(version.status).toBe(400);
    expect(await version.json()).toMatchObject({ id: 7, error: { code: -32022, data: { requested: "2099-01-01" } } });
    const capability = await modernPost({
      id: 8,
      method: "tools/call",
      params: { name: "needs_sampling", arguments: {} },
    });
    expect(capability.status).toBe(400);
    expect(await capability.json()).toMatchObject({
      id: 8,
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
  });

  it("treats closing the response stream as cancelling the request", async () => {
    const fixture = server();
    served = await serveHttp(fixture.s);
    const controller = new AbortController();
    const response = await callWaitForAbort(9, controller.signal, { progressToken: 1 });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const events = sseEvents(response);
    const first = await events.next();
    expect(JSON.parse((first.value as { data: string }).data)).toMatchObject({ method: "notifications/progress" });
    controller.abort();
    await within(fixture.aborted, 2000, "the handler's signal to abort");
  });

  it("cancels the request when the client leaves before the server has answered anything", async () => {
    const fixture = server();
    served = await serveHttp(fixture.s);
    const controller = new AbortController();
    // No progress token: the handler sends nothing, so no response has started yet.
    const pending = callWaitForAbort(11, controller.signal);
    await within(fixture.running, 2000, "the handler to start");
    expect(fixture.wasAborted()).toBe(false); // running, and not cancelled while the client waits
    controller.abort();
    await expect(pending).rejects.toThrow();
    await within(fixture.aborted, 2000, "the handler's signal to abort");
  });

  it("keeps a subscriptions/listen stream open with the acknowledgement first", async () => {
    const fixture = server();
    served = await serveHttp(fixture.s);
    const response = await modernPost({
      id: 10,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true } },
    });
    const events = sseEvents(response);
    const ack = JSON.parse(((await events.next()).value as { data: string }).data);
    expect(ack).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true } },
    });
    fixture.s.tool("late", {}, () => "");
    const change = JSON.parse(((await events.next()).value as { data: string }).data);
    expect(change).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 10 } },
    });
    await events.return(undefined);
  });

  it("serves the legacy era on the same endpoint", async () => {
    served = await serveHttp(server().s);
    const session = await served.open();
    const response = await served.post(
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    );
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect(body.result).not.toHaveProperty("resultType");
    expect(messagesOf(await allEvents(new Response(""))).length).toBe(0);
  });

  it("refuses tool definitions with invalid x-mcp-header annotations", () => {
    const s = createServer({ name: "x", version: "1" });
    const tool = (properties: Record<string, unknown>) => () =>
      s.tool(`t${Math.random()}`.replace(".", ""), { input: { type: "object", properties } }, () => "");
    expect(tool({ a: { type: "number", "x-mcp-header": "A" } })).toThrow(/string, integer or boolean/);
    expect(tool({ a: { type: "string", "x-mcp-header": "bad name" } })).toThrow(/HTTP token/);
    expect(tool({ a: { type: "string", "x-mcp-header": "A" }, b: { type: "string", "x-mcp-header": "a" } })).toThrow(
      /repeats/,
    );
    expect(tool({ a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } })).toThrow(
      /allowed only on a property reached/,
    );
    expect(
      tool({ nested: { type: "object", properties: { deep: { type: "string", "x-mcp-header": "Deep" } } } }),
    ).not.toThrow();
    // Data that happens to hold the key is not an annotation; nullable primitives are fine.
    expect(
      tool({ a: { type: ["string", "null"], default: { "x-mcp-header": 1 }, "x-mcp-header": "A" } }),
    ).not.toThrow();
  });
});
