/**
 * Interoperability, direction A: the OFFICIAL TypeScript SDK client
 * (@modelcontextprotocol/sdk) drives `mcpkit serve everything --stdio` as a real child
 * process. The SDK validates every message it receives against its own schemas, so each
 * passing call also proves mcpkit's wire format is what the reference client expects.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  bigMultibyteText,
  blocks,
  firstText,
  isAlive,
  isPng,
  killIfAlive,
  MCPKIT_BIN,
  waitFor,
} from "./helpers.js";

type Message = Record<string, unknown> & { id?: string | number; method?: string; params?: Record<string, unknown> };

/** The SDK's stdio transport, recording every message in both directions (a wire tap). */
class TappedStdioTransport extends StdioClientTransport {
  readonly received: Message[] = [];
  readonly sent: Message[] = [];
  /** Asks for this revision instead of the SDK's latest (the SDK has no option for it). */
  requestRevision: string | undefined;

  override async start(): Promise<void> {
    // Protocol.connect installs onmessage before start(); wrap it so we see what the SDK sees.
    const deliver = this.onmessage;
    this.onmessage = (message: JSONRPCMessage) => {
      this.received.push(message as unknown as Message);
      deliver?.(message);
    };
    return super.start();
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    if (this.requestRevision && "method" in message && message.method === "initialize")
      message = { ...message, params: { ...message.params, protocolVersion: this.requestRevision } };
    this.sent.push(message as unknown as Message);
    return super.send(message);
  }
}

function spawnMcpkit(): TappedStdioTransport {
  return new TappedStdioTransport({
    command: process.execPath,
    args: [MCPKIT_BIN, "serve", "everything", "--stdio"],
    stderr: "pipe",
  });
}

const ROOTS = [{ uri: "file:///tmp/interop-project", name: "interop-project" }];

describe("official SDK client → mcpkit everything server over stdio", () => {
  let transport: TappedStdioTransport;
  let client: Client;
  const pids: (number | null)[] = [];
  const clientErrors: Error[] = [];
  const logs: { level: string; logger?: string; data: unknown }[] = [];
  const toolListChanges: unknown[] = [];
  const resourceUpdates: string[] = [];
  const elicitationsCompleted: string[] = [];
  const samplingRequests: CreateMessageRequest["params"][] = [];
  const elicitRequests: ElicitRequest["params"][] = [];
  let elicitAnswer: (params: ElicitRequest["params"]) => ElicitResult = () => ({ action: "cancel" });
  /** How the sampling handler behaves for the next requests. */
  let samplingMode: "reply" | "reject" | "hang" = "reply";
  let nestedAbortReason: unknown;
  let roots = ROOTS;

  beforeAll(async () => {
    assertBuilt();
    transport = spawnMcpkit();
    client = new Client(
      { name: "sdk-interop-client", version: "1.0.0" },
      {
        // The SDK refuses requests the server did not declare: mcpkit must declare all it serves.
        enforceStrictCapabilities: true,
        capabilities: {
          sampling: { tools: {} },
          elicitation: { form: { applyDefaults: true }, url: {} },
          roots: { listChanged: true },
        },
      },
    );
    client.onerror = (error) => clientErrors.push(error);
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      samplingRequests.push(request.params);
      // client/sampling §Error Handling: the user rejected the request.
      if (samplingMode === "reject") throw new McpError(-1, "User rejected sampling request");
      if (samplingMode === "hang") {
        // Wait (bounded) for the server to cancel this request.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 3000);
          extra.signal.addEventListener("abort", () => {
            nestedAbortReason = extra.signal.reason;
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (request.params.tools) {
        return {
          role: "assistant",
          model: "interop-model",
          stopReason: "toolUse",
          content: [{ type: "tool_use", id: "call-1", name: "get_time", input: { zone: "UTC" } }],
        };
      }
      const first = request.params.messages[0]?.content;
      const prompt = first && !Array.isArray(first) && first.type === "text" ? first.text : "?";
      return {
        role: "assistant",
        model: "interop-model",
        stopReason: "endTurn",
        content: { type: "text", text: `Reply to: ${prompt}` },
      };
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitRequests.push(request.params);
      return elicitAnswer(request.params);
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => {
      toolListChanges.push(n);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      resourceUpdates.push(n.params.uri);
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      elicitationsCompleted.push(n.params.elicitationId);
    });
    await client.connect(transport, { timeout: 10_000 });
    pids.push(transport.pid);
  });

  afterAll(async () => {
    await client?.close();
    for (const pid of pids) killIfAlive(pid);
  });

  it("initialize: negotiates 2025-11-25 and reports serverInfo (title, icons, websiteUrl), instructions, capabilities", () => {
    const init = transport.sent.find((m) => m.method === "initialize");
    expect(init?.params?.protocolVersion).toBe("2025-11-25");
    const answer = transport.received.find((m) => m.id === init?.id && "result" in m);
    expect((answer?.result as { protocolVersion?: string } | undefined)?.protocolVersion).toBe("2025-11-25");

    expect(client.getServerVersion()).toEqual({
      name: "mcpkit-everything",
      title: "mcpkit everything server",
      version: "0.1.0",
      description: "Exercises every MCP feature; the conformance fixture",
      websiteUrl: "https://github.com/mcpkit/mcpkit",
      icons: [
        {
          src: expect.stringMatching(/^data:image\/png;base64,/),
          mimeType: "image/png",
          sizes: ["1x1"],
        },
      ],
    });
    const icon = client.getServerVersion()?.icons?.[0];
    expect(isPng(icon?.src.replace(/^data:image\/png;base64,/, ""))).toBe(true);
    expect(client.getInstructions()).toBe(
      "A test server: every tool, resource and prompt exists to exercise one protocol feature.",
    );
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
      extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } },
      // 2025-11-25 declares tasks in its own slot (basic/utilities/tasks §Server Capabilities).
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
  });

  it("tools/list: every fixture tool, with input and output schemas the SDK accepts", async () => {
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    const names = tools.map((t) => t.name);
    for (const name of [
      "echo",
      "add",
      "test_simple_text",
      "test_image_content",
      "test_audio_content",
      "test_embedded_resource",
      "test_multiple_content_types",
      "test_error_handling",
      "test_tool_with_logging",
      "test_tool_with_progress",
      "test_sampling",
      "test_elicitation",
      "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums",
      "test_list_roots",
      "test_toggle_tool",
      "test_optional_tool",
      "test_update_watched_resource",
    ]) {
      expect(names).toContain(name);
    }
    const add = tools.find((t) => t.name === "add");
    expect(add?.title).toBe("Add two numbers");
    expect(add?.inputSchema).toMatchObject({ type: "object", required: ["a", "b"] });
    expect(add?.outputSchema).toMatchObject({
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    });
    const echo = tools.find((t) => t.name === "echo");
    expect(echo?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(echo?.inputSchema.properties).toEqual({ text: { type: "string", description: "Text to echo" } });
  });

  it("tools/call: text, image, audio, embedded resource and mixed content", async () => {
    const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
    expect(blocks(simple)).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    expect(simple.isError).toBeFalsy();

    const [image] = blocks(await client.callTool({ name: "test_image_content", arguments: {} }));
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(isPng(image?.data)).toBe(true);

    const [audio] = blocks(await client.callTool({ name: "test_audio_content", arguments: {} }));
    expect(audio).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    const wav = Buffer.from(audio?.data ?? "", "base64");
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.toString("ascii", 8, 12)).toBe("WAVE");

    expect(blocks(await client.callTool({ name: "test_embedded_resource", arguments: {} }))).toEqual([
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ]);

    const mixed = blocks(await client.callTool({ name: "test_multiple_content_types", arguments: {} }));
    expect(mixed.map((b) => b.type)).toEqual(["text", "image", "resource"]);
    expect(mixed[0]?.text).toBe("Multiple content types test:");
    expect(isPng(mixed[1]?.data)).toBe(true);
    expect(mixed[2]?.resource?.uri).toBe("test://mixed-content-resource");
    expect(JSON.parse(mixed[2]?.resource?.text ?? "null")).toEqual({ test: "data", value: 123 });
  });

  it("a tool that throws is a result with isError, not a JSON-RPC error", async () => {
    const result = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe("This tool intentionally returns an error for testing");
  });

  it("add: structuredContent passes the SDK's outputSchema validation and mirrors into text", async () => {
    await client.listTools(); // the SDK caches outputSchema validators from tools/list
    const result = await client.callTool({ name: "add", arguments: { a: 2.5, b: 4 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 6.5 });
    expect(JSON.parse(firstText(result))).toEqual({ sum: 6.5 });
  });

  it("invalid tool arguments are a tool execution error (2025-11-25); an unknown tool is -32602", async () => {
    const bad = await client.callTool({ name: "echo", arguments: { text: 42 } });
    expect(bad.isError).toBe(true);
    expect(firstText(bad)).toMatch(/^Invalid arguments for tool echo: .*text/);

    const good = await client.callTool({ name: "echo", arguments: { text: "round trip" } });
    expect(firstText(good)).toBe("round trip");

    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("no_such_tool"),
    });
  });

  it("resources/list and resources/templates/list describe the fixture resources", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/references/FORMS.md",
      "skill://pdf-processing/scripts/extract.py",
      "skill://pdf-processing/templates/invoice.md",
      "test://static-binary",
      "test://static-text",
      "test://watched-resource",
    ]);
    expect(resources.find((r) => r.uri === "test://static-text")).toEqual({
      uri: "test://static-text",
      name: "static-text",
      title: "Static text",
      description: "A static text resource",
      mimeType: "text/plain",
      annotations: { audience: ["user", "assistant"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" },
    });
    expect(resources.find((r) => r.uri === "test://static-binary")).toMatchObject({ mimeType: "image/png", size: 69 });

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: "test://template/{id}/data",
        name: "template-data",
        description: "Data for an id",
        mimeType: "application/json",
      },
    ]);
  });

  it("resources/read: static text, static binary and a template instance", async () => {
    expect((await client.readResource({ uri: "test://static-text" })).contents).toEqual([
      { uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." },
    ]);

    const [binary] = (await client.readResource({ uri: "test://static-binary" })).contents;
    expect(binary).toMatchObject({ uri: "test://static-binary", mimeType: "image/png" });
    const blob = (binary as { blob?: string }).blob;
    expect(isPng(blob)).toBe(true);
    // The listed size is the decoded size of the blob.
    expect(Buffer.from(blob ?? "", "base64").length).toBe(69);

    const [data] = (await client.readResource({ uri: "test://template/42/data" })).contents;
    expect(data).toMatchObject({ uri: "test://template/42/data", mimeType: "application/json" });
    expect(JSON.parse((data as { text: string }).text)).toEqual({
      id: "42",
      templateTest: true,
      data: "Data for ID: 42",
    });
  });

  it("an unknown resource is error -32002 with the URI in data (read and subscribe)", async () => {
    const read = client.readResource({ uri: "test://does-not-exist" });
    await expect(read).rejects.toBeInstanceOf(McpError);
    await expect(read).rejects.toMatchObject({ code: -32002, data: { uri: "test://does-not-exist" } });
    await expect(client.subscribeResource({ uri: "test://also-missing" })).rejects.toMatchObject({
      code: -32002,
      data: { uri: "test://also-missing" },
    });
  });

  it("resources/subscribe: test_update_watched_resource sends notifications/resources/updated; unsubscribe stops it", async () => {
    const uri = "test://watched-resource";
    await client.subscribeResource({ uri });
    const before = resourceUpdates.length;
    expect(firstText(await client.callTool({ name: "test_update_watched_resource", arguments: { text: "v2" } }))).toBe(
      "updated",
    );
    await waitFor(() => resourceUpdates.length > before, "notifications/resources/updated");
    expect(resourceUpdates.slice(before)).toEqual([uri]);
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: "v2" });

    await client.unsubscribeResource({ uri });
    const wireBefore = transport.received.filter((m) => m.method === "notifications/resources/updated").length;
    await client.callTool({ name: "test_update_watched_resource", arguments: { text: "v3" } });
    await client.ping(); // anything the server sent for the call is on the wire before this answer
    expect(transport.received.filter((m) => m.method === "notifications/resources/updated").length).toBe(wireBefore);
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: "v3" });
  });

  it("prompts/list and prompts/get for the test prompts; a missing required argument is -32602", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      "test_input_required_result_prompt",
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
      "test_simple_prompt",
    ]);
    expect(prompts.find((p) => p.name === "test_prompt_with_arguments")?.arguments).toEqual([
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ]);

    expect((await client.getPrompt({ name: "test_simple_prompt" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
    ]);
    expect(
      (await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "alpha", arg2: "beta" } }))
        .messages,
    ).toEqual([{ role: "user", content: { type: "text", text: "Prompt with arguments: arg1='alpha', arg2='beta'" } }]);
    expect(
      (await client.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://x" } }))
        .messages,
    ).toEqual([
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: "test://x", mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ]);
    const image = await client.getPrompt({ name: "test_prompt_with_image" });
    expect(image.messages.map((m) => m.content.type)).toEqual(["image", "text"]);
    const imageContent = image.messages[0]?.content as { data?: string; mimeType?: string };
    expect(imageContent.mimeType).toBe("image/png");
    expect(isPng(imageContent.data)).toBe(true);

    await expect(
      client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "only one" } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("arg2") });
  });

  it("completion/complete for a prompt argument (with context) and a template variable (100-value cap)", async () => {
    const prompt = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "pa" },
    });
    expect(prompt.completion).toEqual({
      values: ["paris", "park", "party", "pasta", "patio"],
      total: 5,
      hasMore: false,
    });
    const withContext = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg2", value: "pa" },
      context: { arguments: { arg1: "paris" } },
    });
    expect(withContext.completion.values).toEqual(["park", "party", "pasta", "patio"]);

    // ids 1..150: "1" matches 1, 10-19 and 100-150.
    const ones = await client.complete({
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "1" },
    });
    expect(ones.completion.values.length).toBe(62);
    expect(ones.completion.values.every((v) => v.startsWith("1"))).toBe(true);
    expect(ones.completion).toMatchObject({ total: 62, hasMore: false });

    const all = await client.complete({
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "" },
    });
    expect(all.completion.values.length).toBe(100);
    expect(all.completion.values[0]).toBe("1");
    expect(all.completion.values[99]).toBe("100");
    expect(all.completion).toMatchObject({ total: 150, hasMore: true });

    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "no_such_prompt" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("logging/setLevel filters test_tool_with_logging: none at warning, three at info", async () => {
    await client.setLoggingLevel("warning");
    const before = logs.length;
    const onWire = () => transport.received.filter((m) => m.method === "notifications/message").length;
    const wireBefore = onWire();
    expect(firstText(await client.callTool({ name: "test_tool_with_logging", arguments: {} }))).toBe(
      "Logging test completed",
    );
    await client.ping();
    expect(logs.length).toBe(before);
    expect(onWire()).toBe(wireBefore);

    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await waitFor(() => logs.length >= before + 3, "three log messages");
    expect(logs.slice(before)).toEqual([
      { level: "info", logger: "everything", data: "Tool execution started" },
      { level: "info", logger: "everything", data: "Tool processing data" },
      { level: "info", logger: "everything", data: "Tool execution completed" },
    ]);

    await expect(client.setLoggingLevel("verbose" as "info")).rejects.toMatchObject({ code: -32602 });
  });

  it("progress: test_tool_with_progress reports 0, 50, 100 of 100 on the SDK's progress token", async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(firstText(result)).toBe("Progress test completed");

    const request = transport.sent.filter((m) => m.method === "tools/call").at(-1);
    const token = (request?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    expect(token).toBeDefined();
    const onWire = transport.received
      .filter((m) => m.method === "notifications/progress" && m.params?.progressToken === token)
      .map((m) => m.params);
    const expected = [
      { progress: 0, total: 100, message: "Starting" },
      { progress: 50, total: 100, message: "Halfway" },
      { progress: 100, total: 100, message: "Done" },
    ];
    expect(onWire).toEqual(expected.map((p) => ({ progressToken: token, ...p })));
    // The SDK dispatches notifications on a microtask but responses synchronously, so a final
    // progress notification that shares a read chunk with the response can miss the callback.
    // What the callback did receive must be the wire sequence, in order.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual(expected.slice(0, seen.length));
  });

  it("cancellation: aborting an SDK call stops the mcpkit tool (no more progress, no response)", async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: "test_slow", arguments: { steps: 40, ms: 50 } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        if (p.progress >= 2) controller.abort("user pressed stop");
      },
    });
    await expect(call).rejects.toThrow(/user pressed stop/);
    const request = transport.sent.filter((m) => m.method === "tools/call").at(-1);
    expect(
      transport.sent.some((m) => m.method === "notifications/cancelled" && m.params?.requestId === request?.id),
    ).toBe(true);
    const token = (request?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    // Uncancelled, the tool would report 12 more steps while the server takes these 12 of its own.
    await client.callTool({ name: "test_slow", arguments: { steps: 12, ms: 50 } });
    const progress = transport.received
      .filter((m) => m.method === "notifications/progress" && m.params?.progressToken === token)
      .map((m) => m.params?.progress as number);
    expect(progress.slice(0, 2)).toEqual([1, 2]);
    // One or two may have been in flight when the cancellation arrived, no more.
    expect(Math.max(...progress)).toBeLessThanOrEqual(4);
    expect(transport.received.some((m) => m.id === request?.id && !("method" in m))).toBe(false);
    // The connection is healthy afterwards.
    expect(firstText(await client.callTool({ name: "test_slow", arguments: { steps: 1, ms: 0 } }))).toBe(
      "Finished 1 steps",
    );
  });

  it("sampling: test_sampling reaches the SDK's CreateMessage handler and returns its reply", async () => {
    const before = samplingRequests.length;
    const result = await client.callTool({
      name: "test_sampling",
      arguments: { prompt: "What is the capital of France?" },
    });
    expect(firstText(result)).toBe("LLM response: Reply to: What is the capital of France?");
    expect(samplingRequests.slice(before)).toEqual([
      {
        messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
        maxTokens: 100,
      },
    ]);
  });

  it("sampling with tools (2025-11-25): tools and toolChoice reach the SDK; its tool_use reply gets back", async () => {
    const before = samplingRequests.length;
    const result = await client.callTool({
      name: "test_sampling_with_tools",
      arguments: { prompt: "What time is it?" },
    });
    expect(samplingRequests[before]).toMatchObject({
      tools: [{ name: "get_time", description: "Current time", inputSchema: { type: "object" } }],
      toolChoice: { mode: "auto" },
    });
    const text = firstText(result);
    expect(text).toMatch(/^Sampling finished: stopReason=toolUse, content=/);
    expect(JSON.parse(text.slice(text.indexOf("content=") + "content=".length))).toEqual([
      { type: "tool_use", id: "call-1", name: "get_time", input: { zone: "UTC" } },
    ]);
  });

  it("cancelling a tool call cancels the sampling request mcpkit made on its behalf", async () => {
    samplingMode = "hang";
    nestedAbortReason = undefined;
    try {
      const before = samplingRequests.length;
      const controller = new AbortController();
      const call = client.callTool({ name: "test_sampling", arguments: { prompt: "take your time" } }, undefined, {
        signal: controller.signal,
      });
      await waitFor(() => samplingRequests.length > before, "the nested sampling/createMessage");
      controller.abort("caller gave up");
      await expect(call).rejects.toThrow(/caller gave up/);
      await waitFor(() => nestedAbortReason !== undefined, "the nested request to be cancelled", 2000);
      const nested = transport.received.filter((m) => m.method === "sampling/createMessage").at(-1);
      expect(transport.received.filter((m) => m.method === "notifications/cancelled")).toContainEqual(
        expect.objectContaining({ params: expect.objectContaining({ requestId: nested?.id }) }),
      );
      expect(String(nestedAbortReason)).toContain("caller gave up");
    } finally {
      samplingMode = "reply";
    }
  });

  it("a client's error answer to the tool's sampling/elicitation request is a tool execution error (isError)", async () => {
    // server/tools §Error Handling: failures while the tool runs (an API failure, a refusal)
    // are results with isError, so the model sees them; protocol errors are for the tools/call
    // request itself. The client's error code belongs to the nested request, not to tools/call.
    samplingMode = "reject";
    elicitAnswer = () => {
      throw new McpError(-32602, "This client cannot render the requested form");
    };
    try {
      const sampling = await client
        .callTool({ name: "test_sampling", arguments: { prompt: "Summarise my inbox" } })
        .catch((error: McpError) => ({ rejected: { code: error.code, message: error.message } }));
      expect.soft(sampling).toMatchObject({ isError: true });
      expect.soft(JSON.stringify(sampling)).toContain("User rejected sampling request");

      const elicitation = await client
        .callTool({ name: "test_elicitation", arguments: { message: "Your email?" } })
        .catch((error: McpError) => ({ rejected: { code: error.code, message: error.message } }));
      expect.soft(elicitation).toMatchObject({ isError: true });
      expect.soft(JSON.stringify(elicitation)).toContain("cannot render the requested form");
    } finally {
      samplingMode = "reply";
      elicitAnswer = () => ({ action: "cancel" });
    }
  });

  it("elicitation: test_elicitation accept, decline, and an answer that violates the schema", async () => {
    elicitAnswer = () => ({ action: "accept", content: { username: "octocat", email: "octocat@example.com" } });
    const before = elicitRequests.length;
    const accepted = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
    expect(firstText(accepted)).toBe(
      'User response: action=accept, content={"username":"octocat","email":"octocat@example.com"}',
    );
    expect(elicitRequests[before]).toEqual({
      mode: "form",
      message: "Who are you?",
      requestedSchema: {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      },
    });

    elicitAnswer = () => ({ action: "decline" });
    expect(firstText(await client.callTool({ name: "test_elicitation", arguments: { message: "Again?" } }))).toBe(
      "User response: action=decline, content={}",
    );

    // mcpkit validates the accepted content against the schema it sent.
    elicitAnswer = () => ({ action: "accept", content: { username: "octocat" } });
    const invalid = await client.callTool({ name: "test_elicitation", arguments: { message: "Email too?" } });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toMatch(/does not match the schema.*email/);
  });

  it("elicitation SEP-1034: defaults reach the SDK, which fills them in (applyDefaults)", async () => {
    elicitAnswer = () => ({ action: "accept", content: { name: "Jane", age: 41 } });
    const before = elicitRequests.length;
    const result = await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} });
    const properties = elicitRequests[before]?.mode !== "url" ? elicitRequests[before]?.requestedSchema.properties : {};
    expect(properties).toMatchObject({
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
    });
    const text = firstText(result);
    expect(text).toMatch(/^Elicitation completed: action=accept, content=/);
    expect(JSON.parse(text.slice(text.indexOf("content=") + "content=".length))).toEqual({
      name: "Jane",
      age: 41,
      score: 95.5,
      status: "active",
      verified: true,
    });
  });

  it("elicitation SEP-1330: every enum form passes the SDK's request schema; the choices come back", async () => {
    const answer = {
      untitledSingle: "option2",
      titledSingle: "value3",
      legacyEnum: "opt1",
      untitledMulti: ["option1", "option3"],
      titledMulti: ["value2"],
    };
    elicitAnswer = () => ({ action: "accept", content: answer });
    const before = elicitRequests.length;
    const result = await client.callTool({ name: "test_elicitation_sep1330_enums", arguments: {} });
    const request = elicitRequests[before];
    const properties = request?.mode !== "url" ? request?.requestedSchema.properties : {};
    expect(properties).toMatchObject({
      untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
      titledSingle: {
        type: "string",
        oneOf: [
          { const: "value1", title: "First Option" },
          { const: "value2", title: "Second Option" },
          { const: "value3", title: "Third Option" },
        ],
      },
      legacyEnum: { enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
      untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
      titledMulti: {
        type: "array",
        items: { anyOf: expect.arrayContaining([{ const: "value2", title: "Second Choice" }]) },
      },
    });
    expect(firstText(result)).toBe(`Elicitation completed: action=accept, content=${JSON.stringify(answer)}`);

    // A value outside the enum is rejected by mcpkit's validation.
    elicitAnswer = () => ({ action: "accept", content: { untitledSingle: "option9" } });
    const invalid = await client.callTool({ name: "test_elicitation_sep1330_enums", arguments: {} });
    expect(invalid.isError).toBe(true);
  });

  it("URL-mode elicitation: the SDK gets mode url with an id, then notifications/elicitation/complete", async () => {
    elicitAnswer = () => ({ action: "accept" });
    const before = elicitRequests.length;
    const result = await client.callTool({
      name: "test_url_elicitation",
      arguments: { url: "https://example.com/authorize" },
    });
    const request = elicitRequests[before] as { mode?: string; url?: string; elicitationId?: string };
    expect(request).toMatchObject({ mode: "url", url: "https://example.com/authorize" });
    expect(request.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(firstText(result)).toBe(`URL elicitation: action=accept, id=${request.elicitationId}`);
    await waitFor(() => elicitationsCompleted.includes(request.elicitationId ?? "-"), "elicitation/complete");
  });

  it("roots: test_list_roots returns the SDK handler's roots, and follows roots/list_changed", async () => {
    expect(firstText(await client.callTool({ name: "test_list_roots", arguments: {} }))).toBe(
      `Roots: ${JSON.stringify(ROOTS)}`,
    );
    roots = [...ROOTS, { uri: "file:///tmp/second", name: "second" }];
    await client.sendRootsListChanged();
    expect(firstText(await client.callTool({ name: "test_list_roots", arguments: {} }))).toBe(
      `Roots: ${JSON.stringify(roots)}`,
    );
  });

  it("tools/list_changed: test_toggle_tool removes and restores test_optional_tool", async () => {
    const before = toolListChanges.length;
    expect(firstText(await client.callTool({ name: "test_toggle_tool", arguments: {} }))).toBe(
      "test_optional_tool is now disabled",
    );
    await waitFor(() => toolListChanges.length > before, "notifications/tools/list_changed");
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("test_optional_tool");
    await expect(client.callTool({ name: "test_optional_tool", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });

    expect(firstText(await client.callTool({ name: "test_toggle_tool", arguments: {} }))).toBe(
      "test_optional_tool is now enabled",
    );
    await waitFor(() => toolListChanges.length > before + 1, "a second notifications/tools/list_changed");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_optional_tool");
    expect(firstText(await client.callTool({ name: "test_optional_tool", arguments: {} }))).toBe(
      "optional tool called",
    );
  });

  it("concurrent calls are answered independently, whatever order they finish in", async () => {
    const calls = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? client.callTool({ name: "test_slow", arguments: { steps: 1, ms: 60 - i * 4 } })
        : client.callTool({ name: "add", arguments: { a: i, b: 1000 } }),
    );
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      if (i % 3 === 0) expect(firstText(result)).toBe("Finished 1 steps");
      else expect(result.structuredContent).toEqual({ sum: i + 1000 });
    });
  });

  it("a 1 MiB message of multi-byte UTF-8 survives both directions intact", async () => {
    const text = bigMultibyteText();
    const result = await client.callTool({ name: "echo", arguments: { text } });
    expect(firstText(result) === text).toBe(true);
  });

  it("the SDK client saw no protocol errors from mcpkit's messages", () => {
    // Unknown-token reports are the SDK's own race (see the progress test), not mcpkit's.
    expect(clientErrors.filter((e) => !/progress notification for an unknown token/.test(e.message))).toEqual([]);
  });
});

describe("official SDK client without optional capabilities → mcpkit", () => {
  it("mcpkit never sends sampling/elicitation/roots requests to a client that did not declare them, and exits on stdin EOF", async () => {
    assertBuilt();
    const transport = spawnMcpkit();
    const client = new Client({ name: "sdk-bare-client", version: "1.0.0" });
    try {
      await client.connect(transport, { timeout: 10_000 });
      for (const [name, args, capability] of [
        ["test_sampling", { prompt: "hi" }, { sampling: {} }],
        ["test_elicitation", { message: "hi" }, { elicitation: { form: {} } }],
        ["test_list_roots", {}, { roots: {} }],
      ] as const) {
        await expect(client.callTool({ name, arguments: args })).rejects.toMatchObject({
          data: { requiredCapabilities: capability },
        });
      }
      const serverRequests = transport.received.filter((m) => "method" in m && "id" in m);
      expect(serverRequests).toEqual([]);
    } finally {
      const pid = transport.pid;
      const started = Date.now();
      await client.close();
      // The SDK ends stdin and only escalates to SIGTERM after 2 s: a prompt exit means mcpkit's
      // stdio transport closed on EOF by itself.
      expect(Date.now() - started).toBeLessThan(1500);
      await waitFor(() => !isAlive(pid), "the server process to exit", 2000);
      killIfAlive(pid);
    }
  });
});

describe("official SDK client asking for 2025-06-18 → mcpkit applies that revision's rules", () => {
  it("no 2025-11-25 fields in serverInfo, bad tool arguments are -32602, elicitation has no mode field", async () => {
    assertBuilt();
    const transport = spawnMcpkit();
    transport.requestRevision = "2025-06-18";
    const client = new Client({ name: "sdk-2025-06-18", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { username: "old-timer", email: "old@example.com" },
    }));
    try {
      await client.connect(transport, { timeout: 10_000 });
      const init = transport.received.find((m) => m.id === transport.sent[0]?.id);
      expect(init?.result).toMatchObject({ protocolVersion: "2025-06-18" });
      // icons, websiteUrl and description arrived in 2025-11-25; title in 2025-06-18.
      expect(client.getServerVersion()).toEqual({
        name: "mcpkit-everything",
        title: "mcpkit everything server",
        version: "0.1.0",
      });

      await expect(client.callTool({ name: "echo", arguments: { text: 42 } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("Invalid arguments for tool echo"),
      });

      const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Old style?" } });
      expect(firstText(result)).toBe(
        'User response: action=accept, content={"username":"old-timer","email":"old@example.com"}',
      );
      const request = transport.received.find((m) => m.method === "elicitation/create");
      expect(request?.params).toBeDefined();
      expect(request?.params).not.toHaveProperty("mode");
      expect(request?.params).toMatchObject({ message: "Old style?" });
    } finally {
      const pid = transport.pid;
      await client.close();
      killIfAlive(pid);
    }
  });
});
