/**
 * Interoperability, direction B: the mcpkit client drives the OFFICIAL reference server,
 * @modelcontextprotocol/server-everything (built on the official SDK), as a real child
 * process over stdio. Assertions use the names and values that server really returns.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { CreateMessageParams, ElicitParams, ElicitResult, Root } from "mcpkit";
import { McpError } from "mcpkit";
import { Client } from "mcpkit/client";
import { DEFAULT_INHERITED_ENV, type StdioClientTransport, stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bigMultibyteText,
  blocks,
  firstText,
  isAlive,
  isPng,
  killIfAlive,
  OFFICIAL_DOCS_DIR,
  OFFICIAL_SERVER_ENTRY,
  sleep,
  waitFor,
} from "./helpers.js";

const ROOTS: Root[] = [{ uri: "file:///tmp/interop-root", name: "interop-root" }];
const SECRET_VAR = "MCPKIT_INTEROP_SECRET";
const MARKER_VAR = "MCPKIT_INTEROP_MARKER";

function spawnOfficial(extra: Partial<Parameters<typeof stdioClientTransport>[0]> = {}): StdioClientTransport {
  return stdioClientTransport({
    command: process.execPath,
    args: [OFFICIAL_SERVER_ENTRY, "stdio"],
    stderr: "pipe",
    killTimeoutMs: 3000,
    ...extra,
  });
}

type LogParams = { level?: string; logger?: string; data?: unknown };

describe("mcpkit client → official server-everything over stdio", () => {
  let transport: StdioClientTransport;
  let client: Client;
  let pid: number | undefined;
  let stderr = "";
  const clientErrors: unknown[] = [];
  const logs: LogParams[] = [];
  const resourceUpdates: string[] = [];
  const listChanged: string[] = [];
  const samplingRequests: CreateMessageParams[] = [];
  const elicitRequests: ElicitParams[] = [];
  let elicitAnswer: (params: ElicitParams) => ElicitResult = () => ({ action: "cancel" });
  /** Every message the server sent, as the transport received it (before the client saw it). */
  const wireIn: { method?: string; params?: { progress?: number; progressToken?: unknown } }[] = [];

  beforeAll(async () => {
    process.env[SECRET_VAR] = "must-not-reach-the-server";
    transport = spawnOfficial({ env: { [MARKER_VAR]: "passed-explicitly" } });
    const start = transport.start.bind(transport);
    transport.start = (sink) => {
      const message = sink.message.bind(sink);
      sink.message = (value) => {
        wireIn.push(value as (typeof wireIn)[number]);
        message(value);
      };
      return start(sink);
    };
    client = new Client({
      name: "mcpkit-interop-client",
      version: "1.0.0",
      timeoutMs: 10_000,
      roots: ROOTS,
      capabilities: { elicitation: { url: {} } },
      onError: (error) => clientErrors.push(error),
      sampling: async (params) => {
        samplingRequests.push(params);
        const first = Array.isArray(params.messages[0]?.content)
          ? params.messages[0]?.content[0]
          : params.messages[0]?.content;
        const text = first?.type === "text" ? first.text : "?";
        // "delay:<ms>" in the prompt makes answers finish out of order.
        const delay = Number(/delay:(\d+)/.exec(text)?.[1] ?? 0);
        await sleep(delay);
        return {
          role: "assistant",
          model: "interop-model",
          stopReason: "endTurn",
          content: { type: "text", text: `Reply to <${text}>` },
        };
      },
      elicitation: (params) => {
        elicitRequests.push(params);
        return elicitAnswer(params);
      },
    });
    client.on("notifications/message", (params) => {
      logs.push(params as LogParams);
    });
    client.on("notifications/resources/updated", (params) => {
      resourceUpdates.push(String(params.uri));
    });
    for (const kind of ["tools", "resources", "prompts"]) {
      client.on(`notifications/${kind}/list_changed`, () => {
        listChanged.push(kind);
      });
    }
    await client.connect(transport);
    pid = transport.pid;
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
  });

  afterAll(async () => {
    delete process.env[SECRET_VAR];
    await client?.close();
    killIfAlive(pid);
  });

  it("initialize: 2025-11-25, the reference serverInfo, capabilities, and instructions from its docs", async () => {
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toEqual({
      name: "mcp-servers/everything",
      title: "Everything Reference Server",
      version: "2.0.0",
    });
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
    expect(client.instructions).toBe(readFileSync(join(OFFICIAL_DOCS_DIR, "instructions.md"), "utf8"));
    expect(client.isConnected).toBe(true);
    // stderr: "pipe" hands the server's log stream to us instead of mixing it into stdout.
    await waitFor(() => stderr.includes("Starting default (STDIO) server..."), "the server's stderr banner");
  });

  it("tools: the base tools plus those registered only for declared sampling/elicitation/roots", async () => {
    const tools = await client.tools();
    const names = tools.map((t) => t.name);
    for (const name of [
      "echo",
      "get-sum",
      "get-env",
      "get-structured-content",
      "get-tiny-image",
      "get-annotated-message",
      "get-resource-links",
      "get-resource-reference",
      "gzip-file-as-resource",
      "toggle-simulated-logging",
      "toggle-subscriber-updates",
      "trigger-long-running-operation",
      "get-roots-list",
      "trigger-sampling-request",
      "trigger-elicitation-request",
      "trigger-url-elicitation",
    ]) {
      expect(names).toContain(name);
    }
    expect(tools.find((t) => t.name === "echo")).toMatchObject({
      title: "Echo Tool",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
      annotations: { readOnlyHint: true },
    });
    expect(tools.find((t) => t.name === "get-structured-content")?.outputSchema).toMatchObject({
      type: "object",
      properties: { temperature: { type: "number" }, conditions: { type: "string" }, humidity: { type: "number" } },
    });
  });

  it("tools/call: echo, get-sum, and the reference server's error results", async () => {
    expect(firstText(await client.callTool("echo", { message: "hello from mcpkit" }))).toBe("Echo: hello from mcpkit");
    expect(firstText(await client.callTool("get-sum", { a: 19, b: 23 }))).toBe("The sum of 19 and 23 is 42.");

    // The SDK server reports bad arguments and unknown tools as isError results.
    const bad = await client.callTool("echo", { message: 7 });
    expect(bad.isError).toBe(true);
    expect(firstText(bad)).toMatch(/Input validation error.*message/);
    const unknown = await client.callTool("no-such-tool", {});
    expect(unknown.isError).toBe(true);
    expect(firstText(unknown)).toContain("Tool no-such-tool not found");
  });

  it("get-structured-content: structuredContent and its text mirror", async () => {
    const result = await client.callTool("get-structured-content", { location: "Chicago" });
    const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    expect(result.structuredContent).toEqual(weather);
    expect(JSON.parse(firstText(result))).toEqual(weather);
  });

  it("image, annotations, resource links and embedded resources", async () => {
    const image = blocks(await client.callTool("get-tiny-image"));
    expect(image.map((b) => b.type)).toEqual(["text", "image", "text"]);
    expect(image[0]?.text).toBe("Here's the image you requested:");
    expect(image[1]?.mimeType).toBe("image/png");
    expect(isPng(image[1]?.data)).toBe(true);

    const annotated = blocks(
      await client.callTool("get-annotated-message", { messageType: "error", includeImage: true }),
    );
    expect(annotated[0]).toEqual({
      type: "text",
      text: "Error: Operation failed",
      annotations: { priority: 1, audience: ["user", "assistant"] },
    });
    expect(annotated[1]).toMatchObject({ type: "image", annotations: { priority: 0.5, audience: ["user"] } });

    const links = blocks(await client.callTool("get-resource-links", { count: 4 }));
    expect(links[0]?.text).toBe("Here are 4 resource links to resources available in this server:");
    expect(links.slice(1).map((b) => [b.type, b.uri, b.name])).toEqual([
      ["resource_link", "demo://resource/dynamic/blob/1", "Blob Resource 1"],
      ["resource_link", "demo://resource/dynamic/text/2", "Text Resource 2"],
      ["resource_link", "demo://resource/dynamic/blob/3", "Blob Resource 3"],
      ["resource_link", "demo://resource/dynamic/text/4", "Text Resource 4"],
    ]);

    const reference = blocks(await client.callTool("get-resource-reference", { resourceType: "Blob", resourceId: 3 }));
    expect(reference[1]?.type).toBe("resource");
    expect(reference[1]?.resource?.uri).toBe("demo://resource/dynamic/blob/3");
    expect(Buffer.from(reference[1]?.resource?.blob ?? "", "base64").toString()).toMatch(
      /^Resource 3: This is a base64 blob created at /,
    );
  });

  it("resources: static documents from its docs folder, templates, and reads of each kind", async () => {
    const resources = await client.resources();
    const docs = readdirSync(OFFICIAL_DOCS_DIR).sort();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      docs.map((name) => `demo://resource/static/document/${encodeURIComponent(name)}`),
    );
    expect(resources.find((r) => r.name === "features.md")).toMatchObject({ mimeType: "text/markdown" });

    expect((await client.resourceTemplates()).map((t) => [t.name, t.uriTemplate])).toEqual([
      ["Dynamic Text Resource", "demo://resource/dynamic/text/{resourceId}"],
      ["Dynamic Blob Resource", "demo://resource/dynamic/blob/{resourceId}"],
    ]);

    const [text] = (await client.readResource("demo://resource/dynamic/text/7")).contents;
    expect(text).toMatchObject({ uri: "demo://resource/dynamic/text/7", mimeType: "text/plain" });
    expect((text as { text: string }).text).toMatch(/^Resource 7: This is a plaintext resource created at /);

    const [blob] = (await client.readResource("demo://resource/dynamic/blob/7")).contents;
    expect(Buffer.from((blob as { blob: string }).blob, "base64").toString()).toMatch(
      /^Resource 7: This is a base64 blob created at /,
    );

    const [doc] = (await client.readResource("demo://resource/static/document/features.md")).contents;
    expect(doc).toEqual({
      uri: "demo://resource/static/document/features.md",
      mimeType: "text/markdown",
      text: readFileSync(join(OFFICIAL_DOCS_DIR, "features.md"), "utf8"),
    });
  });

  it("read errors arrive as McpError with the server's code and message", async () => {
    // The SDK server answers an unknown URI with -32602 (not the spec's suggested -32002).
    const unknown = client.readResource("demo://does-not-exist");
    await expect(unknown).rejects.toBeInstanceOf(McpError);
    await expect(unknown).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("not found") });
    await expect(client.readResource("demo://resource/dynamic/text/not-a-number")).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("Unknown resource"),
    });
  });

  it("a session resource created by gzip-file-as-resource appears after resources/list_changed", async () => {
    const before = await client.resources(); // primes the client's cache
    const original = "mcpkit interop: compress me, then read me back.\n".repeat(20);
    const name = "interop-notes.txt.gz";
    const uri = `demo://resource/session/${name}`;
    expect(before.map((r) => r.uri)).not.toContain(uri);
    const changes = listChanged.filter((k) => k === "resources").length;

    const result = await client.callTool("gzip-file-as-resource", {
      name,
      data: `data:text/plain;base64,${Buffer.from(original).toString("base64")}`,
    });
    expect(blocks(result)).toEqual([{ type: "resource_link", uri, name, mimeType: "application/gzip" }]);
    await waitFor(
      () => listChanged.filter((k) => k === "resources").length > changes,
      "notifications/resources/list_changed",
    );

    // The notification invalidated the cached list, so this fetches the new one.
    expect((await client.resources()).map((r) => r.uri)).toContain(uri);
    const [contents] = (await client.readResource(uri)).contents;
    expect(contents).toMatchObject({ uri, mimeType: "application/gzip" });
    expect(gunzipSync(Buffer.from((contents as { blob: string }).blob, "base64")).toString()).toBe(original);
  });

  it("prompts: list and get all four; a missing required argument is -32602", async () => {
    const prompts = await client.prompts();
    expect(prompts.map((p) => p.name)).toEqual([
      "simple-prompt",
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
    ]);
    expect(prompts.find((p) => p.name === "args-prompt")?.arguments).toEqual([
      { name: "city", description: "Name of the city", required: true },
      { name: "state", required: false },
    ]);

    expect((await client.getPrompt("simple-prompt")).messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt without arguments." } },
    ]);
    expect((await client.getPrompt("args-prompt", { city: "Paris", state: "TX" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "What's weather in Paris, TX?" } },
    ]);
    expect((await client.getPrompt("completable-prompt", { department: "Sales", name: "Eve" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Please promote Eve to the head of the Sales team." } },
    ]);
    const embedded = (await client.getPrompt("resource-prompt", { resourceType: "Text", resourceId: "3" })).messages;
    expect(embedded[0]?.content).toEqual({
      type: "text",
      text: "This prompt includes the Text resource with id: 3. Please analyze the following resource:",
    });
    expect(embedded[1]?.content).toMatchObject({
      type: "resource",
      resource: { uri: "demo://resource/dynamic/text/3", mimeType: "text/plain" },
    });

    await expect(client.getPrompt("args-prompt", {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("city"),
    });
  });

  it("completion: prompt arguments (context-dependent) and a resource template variable", async () => {
    const department = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "E" },
    });
    expect(department.completion.values).toEqual(["Engineering"]);
    const all = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "" },
    });
    expect(all.completion.values).toEqual(["Engineering", "Sales", "Marketing", "Support"]);

    const engineering = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "" },
      context: { arguments: { department: "Engineering" } },
    });
    expect(engineering.completion.values).toEqual(["Alice", "Bob", "Charlie"]);
    const sales = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "E" },
      context: { arguments: { department: "Sales" } },
    });
    expect(sales.completion.values).toEqual(["Eve"]);

    const id = await client.complete({
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "42" },
    });
    expect(id.completion.values).toEqual(["42"]);
    const notAnId = await client.complete({
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "abc" },
    });
    expect(notAnId.completion.values).toEqual([]);
  });

  it("logging/setLevel: the server's subscribe acknowledgement (info) is dropped at warning, sent at info", async () => {
    const ack = (uri: string) =>
      logs.find((l) => String(l.data).startsWith(`Received Subscribe Resource request for URI: ${uri}`));
    await client.setLogLevel("warning");
    await client.subscribe("demo://resource/dynamic/text/101");
    // The server awaits its log before answering, so a sent log would already be here.
    expect(ack("demo://resource/dynamic/text/101")).toBeUndefined();

    await client.setLogLevel("info");
    await client.subscribe("demo://resource/dynamic/text/102");
    expect(ack("demo://resource/dynamic/text/102")).toMatchObject({ level: "info" });
  });

  it("simulated logging at level debug delivers the server's leveled messages", async () => {
    await client.setLogLevel("debug");
    const before = logs.length;
    expect(firstText(await client.callTool("toggle-simulated-logging"))).toMatch(/^Started simulated, random-leveled/);
    try {
      const message = await waitFor(
        () => logs.slice(before).find((l) => /^\w+[- ]level[- ]message/.test(String(l.data))),
        "a simulated log message",
      );
      // Each message names its own level ("Warning-level message", "Alert level-message").
      expect(String(message.data).split(/[- ]/)[0]?.toLowerCase()).toBe(message.level);
    } finally {
      expect(firstText(await client.callTool("toggle-simulated-logging"))).toMatch(/^Stopped simulated logging/);
    }
  });

  it("resources/subscribe + toggle-subscriber-updates: notifications/resources/updated for each subscription", async () => {
    const uris = ["demo://resource/dynamic/text/201", "demo://resource/dynamic/blob/202"];
    for (const uri of uris) await client.subscribe(uri);
    const before = resourceUpdates.length;
    expect(firstText(await client.callTool("toggle-subscriber-updates"))).toMatch(
      /^Started simulated resource updated/,
    );
    try {
      await waitFor(
        () => uris.every((uri) => resourceUpdates.slice(before).includes(uri)),
        "updates for both subscriptions",
      );
    } finally {
      expect(firstText(await client.callTool("toggle-subscriber-updates"))).toMatch(
        /^Stopped simulated resource updates/,
      );
    }
    for (const uri of uris) await client.unsubscribe(uri);
  });

  it("progress: trigger-long-running-operation reports every step to onprogress", async () => {
    const seen: unknown[] = [];
    const result = await client.callTool(
      "trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { onprogress: (p) => seen.push(p) },
    );
    expect(firstText(result)).toBe("Long running operation completed. Duration: 0.3 seconds, Steps: 3.");
    expect(seen).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("timeouts: a slow call times out (-32001); progress resets the timeout; maxTotalTimeoutMs caps it", async () => {
    await expect(
      client.callTool("trigger-long-running-operation", { duration: 0.6, steps: 2 }, { timeoutMs: 200 }),
    ).rejects.toMatchObject({ code: -32001, data: { timeout: 200 } });

    const started = Date.now();
    const kept = await client.callTool(
      "trigger-long-running-operation",
      { duration: 1.2, steps: 6 },
      { timeoutMs: 600, onprogress: () => {} },
    );
    expect(firstText(kept)).toBe("Long running operation completed. Duration: 1.2 seconds, Steps: 6.");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1150); // twice the timeout: progress kept it alive

    await expect(
      client.callTool(
        "trigger-long-running-operation",
        { duration: 1.2, steps: 6 },
        { timeoutMs: 600, maxTotalTimeoutMs: 700, onprogress: () => {} },
      ),
    ).rejects.toMatchObject({ code: -32001 });
  });

  it("cancellation: aborting rejects with the reason; the server's late progress is ignored", async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const errorsBefore = clientErrors.length;
    const call = client.callTool(
      "trigger-long-running-operation",
      { duration: 1, steps: 10 },
      {
        signal: controller.signal,
        onprogress: (p) => {
          seen.push(p.progress);
          if (p.progress >= 2) controller.abort(new Error("stopped by the test"));
        },
      },
    );
    await expect(call).rejects.toThrow("stopped by the test");
    // This tool does not stop on cancellation: it keeps sending progress for the old token.
    // Once a later step has reached the transport, the client has had it and dropped it.
    await waitFor(
      () => wireIn.some((m) => m.method === "notifications/progress" && (m.params?.progress ?? 0) >= 4),
      "the server's late progress",
      5000,
    );
    expect(seen).toEqual([1, 2]);
    expect(clientErrors.length).toBe(errorsBefore);
    await client.ping();
  });

  it("sampling: the server's sampling/createMessage reaches the handler, concurrently and in any order", async () => {
    const before = samplingRequests.length;
    const result = await client.callTool("trigger-sampling-request", { prompt: "Name a prime", maxTokens: 42 });
    expect(samplingRequests[before]).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "Resource trigger-sampling-request context: Name a prime" } },
      ],
      systemPrompt: "You are a helpful test server.",
      maxTokens: 42,
      temperature: 0.7,
    });
    const text = firstText(result);
    expect(text.startsWith("LLM sampling result: \n")).toBe(true);
    expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toEqual({
      role: "assistant",
      model: "interop-model",
      stopReason: "endTurn",
      content: { type: "text", text: "Reply to <Resource trigger-sampling-request context: Name a prime>" },
    });

    // Three at once, the first answered last: each reply goes back to its own request.
    const delays = [150, 75, 0];
    const results = await Promise.all(
      delays.map((d) => client.callTool("trigger-sampling-request", { prompt: `delay:${d}` })),
    );
    results.forEach((r, i) => {
      expect(firstText(r)).toContain(`Reply to <Resource trigger-sampling-request context: delay:${delays[i]}>`);
    });
  });

  it("form elicitation: mcpkit fills the schema's defaults (SEP-1034) without overriding given values", async () => {
    elicitAnswer = () => ({
      action: "accept",
      content: { name: "Ada Lovelace", check: true, email: "ada@example.com", integer: 7 },
    });
    const before = elicitRequests.length;
    const result = await client.callTool("trigger-elicitation-request");
    const request = elicitRequests[before];
    expect(request?.mode ?? "form").toBe("form");
    expect(request?.message).toBe("Please provide inputs for the following fields:");
    const schema = request?.mode !== "url" ? request?.requestedSchema : undefined;
    expect(schema?.required).toEqual(["name"]);
    expect(schema?.properties.email).toMatchObject({ type: "string", format: "email" });

    const texts = blocks(result).map((b) => b.text ?? "");
    expect(texts[0]).toBe("✅ User provided the requested information!");
    expect(texts[1]).toBe(
      [
        "User inputs:",
        "- Name: Ada Lovelace",
        "- Agreed to terms: true",
        "- Email: ada@example.com",
        "- Favorite Integer: 7",
        "- Favorite Number: 3.14",
      ].join("\n"),
    );
    const raw = JSON.parse((texts[2] ?? "").replace(/^\s*Raw result: /, ""));
    expect(raw).toEqual({
      action: "accept",
      content: {
        name: "Ada Lovelace",
        check: true,
        email: "ada@example.com",
        integer: 7,
        firstLine: "It was a dark and stormy night.",
        number: 3.14,
        untitledSingleSelectEnum: "Monica",
        untitledMultipleSelectEnum: ["Guitar"],
        titledSingleSelectEnum: "hero-1",
        titledMultipleSelectEnum: ["fish-1"],
        legacyTitledEnum: "pet-1",
      },
    });

    elicitAnswer = () => ({ action: "decline" });
    expect(firstText(await client.callTool("trigger-elicitation-request"))).toBe(
      "❌ User declined to provide the requested information.",
    );
    elicitAnswer = () => ({ action: "cancel" });
    expect(firstText(await client.callTool("trigger-elicitation-request"))).toBe(
      "⚠️ User cancelled the elicitation dialog.",
    );
  });

  it("URL elicitation: request path, and the -32042 error path with its prerequisite", async () => {
    elicitAnswer = () => ({ action: "accept" });
    const url = "https://example.com/interop/authorize";
    const before = elicitRequests.length;
    const result = await client.callTool("trigger-url-elicitation", { url, elicitationId: "interop-el-1" });
    expect(elicitRequests[before]).toEqual({
      mode: "url",
      url,
      elicitationId: "interop-el-1",
      message: "Please open the link to complete this action.",
    });
    expect(firstText(result)).toBe(
      `✅ User completed the URL elicitation flow.\nElicitation ID: interop-el-1\nURL: ${url}`,
    );

    const args = { url, elicitationId: "interop-el-2", errorPath: true };
    const failed = client.callTool("trigger-url-elicitation", args);
    await expect(failed).rejects.toBeInstanceOf(McpError);
    await expect(failed).rejects.toMatchObject({
      code: -32042,
      data: { elicitations: [{ mode: "url", url: "https://modelcontextprotocol.io" }] },
    });
    // Retrying the same call after the prerequisite proceeds through elicitation/create.
    const retried = await client.callTool("trigger-url-elicitation", args);
    expect(firstText(retried)).toContain("Elicitation ID: interop-el-2");
  });

  it("roots: get-roots-list shows the client's roots; setRoots triggers a re-fetch", async () => {
    expect(firstText(await client.callTool("get-roots-list"))).toMatch(
      /^Current MCP Roots \(1 total\):\n\n1\. interop-root\n {3}URI: file:\/\/\/tmp\/interop-root\n/,
    );
    client.setRoots([{ uri: "file:///tmp/a", name: "a" }, { uri: "file:///tmp/b" }]);
    await waitFor(
      () => logs.find((l) => l.data === "Roots updated: 2 root(s) received from client"),
      "the server to re-fetch roots after notifications/roots/list_changed",
    );
    const listed = firstText(await client.callTool("get-roots-list"));
    expect(listed).toContain("Current MCP Roots (2 total):");
    expect(listed).toContain("1. a\n   URI: file:///tmp/a");
    expect(listed).toContain("2. Unnamed Root\n   URI: file:///tmp/b");
  });

  it("stdio env: the server gets the inherited allowlist plus explicit env, and nothing else", async () => {
    const env = JSON.parse(firstText(await client.callTool("get-env"))) as Record<string, string>;
    expect(env[MARKER_VAR]).toBe("passed-explicitly");
    expect(env[SECRET_VAR]).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
    for (const name of Object.keys(env)) expect([...DEFAULT_INHERITED_ENV, MARKER_VAR]).toContain(name);
  });

  it("concurrent calls and a 1 MiB multi-byte message", async () => {
    const messages = Array.from({ length: 10 }, (_, i) => `message #${i} ✓`);
    const echoed = await Promise.all(messages.map((message) => client.callTool("echo", { message })));
    expect(echoed.map(firstText)).toEqual(messages.map((m) => `Echo: ${m}`));

    const text = bigMultibyteText();
    const big = await client.callTool("echo", { message: text });
    expect(firstText(big) === `Echo: ${text}`).toBe(true);
  });

  it("closing ends the server: stdin EOF, exit code 0, no stray errors", async () => {
    expect(clientErrors).toEqual([]);
    await client.close();
    expect(client.isConnected).toBe(false);
    expect(transport.exit).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
    await expect(client.callTool("echo", { message: "after close" })).rejects.toThrow(/not connected|closed/i);
  });
});

describe("mcpkit client → official server: negotiation and process lifecycle", () => {
  it("an older revision (2025-06-18) and no client capabilities: no capability-gated tools", async () => {
    const transport = spawnOfficial({ stderr: "ignore", killTimeoutMs: 300 });
    const client = new Client({ name: "mcpkit-bare-client", version: "1.0.0", protocolVersion: "2025-06-18" });
    try {
      const init = await client.connect(transport);
      expect(init.protocolVersion).toBe("2025-06-18");
      expect(client.capabilities).toEqual({});
      const names = (await client.tools()).map((t) => t.name);
      expect(names).toContain("echo");
      for (const gated of [
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
      ]) {
        expect(names).not.toContain(gated);
      }
      // A server that ignores stdin EOF (its logging interval keeps it alive) is terminated.
      await client.callTool("toggle-simulated-logging");
    } finally {
      const started = Date.now();
      await client.close();
      killIfAlive(transport.pid);
      expect(transport.exit).toEqual({ code: null, signal: "SIGTERM" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    }
  });

  it("a server that exits during startup fails connect with the exit code, without hanging", async () => {
    const transport = spawnOfficial({ args: [OFFICIAL_SERVER_ENTRY, "no-such-transport"] });
    const client = new Client({ name: "mcpkit-interop-client", version: "1.0.0", timeoutMs: 5000 });
    try {
      const connecting = client.connect(transport);
      await expect(connecting).rejects.toBeInstanceOf(McpError);
      await expect(connecting).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(/exited with code 1/),
      });
      expect(transport.exit).toEqual({ code: 1, signal: null });
    } finally {
      await client.close();
      killIfAlive(transport.pid);
    }
  });
});
