import type { McpServer } from "mcpkit/server";
import { audio, embedded, image, resourceLink, structured, text } from "mcpkit/server";
import { z } from "zod";
import { RED_PIXEL_PNG, SILENT_WAV } from "./media.js";

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The fixture from the conformance suite's json-schema-2020-12 scenario (SEP-1613, SEP-2106). */
export const JSON_SCHEMA_2020_12_FIXTURE = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a promise
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

export function registerTools(server: McpServer, state: { watched: string }): void {
  server.tool(
    "echo",
    {
      title: "Echo",
      description: "Echoes the text back",
      input: z.object({ text: z.string().describe("Text to echo") }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ text: value }) => value,
  );

  server.tool(
    "add",
    {
      title: "Add two numbers",
      description: "Adds a and b; returns structured content",
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => structured({ sum: a + b }),
  );

  server.tool(
    "test_simple_text",
    { description: "Returns simple text" },
    () => text("This is a simple text response for testing.").text,
  );

  server.tool("test_image_content", { description: "Returns an image" }, () => ({
    content: [image(RED_PIXEL_PNG, "image/png")],
  }));

  server.tool("test_audio_content", { description: "Returns audio" }, () => ({
    content: [audio(SILENT_WAV, "audio/wav")],
  }));

  server.tool("test_embedded_resource", { description: "Returns an embedded resource" }, () => ({
    content: [
      embedded({
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      }),
    ],
  }));

  server.tool("test_multiple_content_types", { description: "Returns text, an image and a resource" }, () => ({
    content: [
      text("Multiple content types test:"),
      image(RED_PIXEL_PNG, "image/png"),
      embedded({
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      }),
    ],
  }));

  server.tool("test_resource_link", { description: "Returns a link to a resource" }, () => ({
    content: [
      resourceLink({
        uri: "test://static-text",
        name: "static-text",
        mimeType: "text/plain",
        description: "Static text",
      }),
    ],
  }));

  server.tool("test_error_handling", { description: "Always fails" }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });

  server.tool("test_tool_with_logging", { description: "Logs three messages while running" }, async (_args, ctx) => {
    ctx.log("info", "Tool execution started", "everything");
    await sleep(50, ctx.signal);
    ctx.log("info", "Tool processing data", "everything");
    await sleep(50, ctx.signal);
    ctx.log("info", "Tool execution completed", "everything");
    return "Logging test completed";
  });

  server.tool("test_tool_with_progress", { description: "Reports progress 0, 50, 100 of 100" }, async (_args, ctx) => {
    ctx.progress(0, 100, "Starting");
    await sleep(50, ctx.signal);
    ctx.progress(50, 100, "Halfway");
    await sleep(50, ctx.signal);
    ctx.progress(100, 100, "Done");
    return "Progress test completed";
  });

  server.tool(
    "test_slow",
    {
      description: "Waits, reporting progress each step, until done or cancelled",
      input: z.object({
        steps: z.number().int().min(1).max(100).default(5),
        ms: z.number().int().min(0).max(10_000).default(100),
      }),
    },
    async ({ steps, ms }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(ms, ctx.signal);
        ctx.progress(i, steps);
      }
      return `Finished ${steps} steps`;
    },
  );

  server.tool(
    "test_sampling",
    { description: "Asks the client's model", input: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return `LLM response: ${content?.type === "text" ? content.text : JSON.stringify(content)}`;
    },
  );

  server.tool(
    "test_sampling_with_tools",
    {
      description: "Asks the client's model, offering it a tool (2025-11-25)",
      input: z.object({ prompt: z.string() }),
    },
    async ({ prompt }, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
        tools: [{ name: "get_time", description: "Current time", inputSchema: { type: "object" } }],
        toolChoice: { mode: "auto" },
      });
      return `Sampling finished: stopReason=${result.stopReason ?? "none"}, content=${JSON.stringify(result.content)}`;
    },
  );

  server.tool(
    "test_elicitation",
    { description: "Asks the user for a username and email", input: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      const result = await ctx.elicit({
        message,
        schema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
    },
  );

  server.tool(
    "test_elicitation_sep1034_defaults",
    { description: "Elicits with defaults for every primitive type" },
    async (_a, ctx) => {
      const result = await ctx.elicit({
        message: "Please review and update the form fields with defaults",
        schema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
    },
  );

  server.tool("test_elicitation_sep1330_enums", { description: "Elicits with every enum form" }, async (_a, ctx) => {
    const result = await ctx.elicit({
      message: "Please select options from the enum fields",
      schema: {
        type: "object",
        properties: {
          untitledSingle: {
            type: "string",
            description: "Untitled single-select",
            enum: ["option1", "option2", "option3"],
          },
          titledSingle: {
            type: "string",
            description: "Titled single-select",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Legacy titled enum",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Untitled multi-select",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Titled multi-select",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  });

  server.tool(
    "test_url_elicitation",
    {
      description: "Sends the user to a URL (URL-mode elicitation, 2025-11-25)",
      input: z.object({ url: z.string().url() }),
    },
    async ({ url }, ctx) => {
      const result = await ctx.elicit({ mode: "url", message: "Please finish in your browser", url });
      ctx.elicitationComplete(result.elicitationId);
      return `URL elicitation: action=${result.action}, id=${result.elicitationId}`;
    },
  );

  server.tool("test_list_roots", { description: "Lists the client's roots" }, async (_a, ctx) => {
    const roots = await ctx.listRoots();
    return `Roots: ${JSON.stringify(roots)}`;
  });

  server.tool(
    "json_schema_2020_12_tool",
    { description: "Tool with JSON Schema 2020-12 features", input: JSON_SCHEMA_2020_12_FIXTURE },
    (args) => `ok: ${JSON.stringify(args)}`,
  );

  server.tool(
    "test_reconnection",
    { description: "Closes its HTTP stream mid-call; the answer arrives after the client reconnects (SSE polling)" },
    async (_a, ctx) => {
      ctx.log("info", "Closing the stream; reconnect to get the result", "everything");
      await sleep(50, ctx.signal);
      ctx.closeStream(100);
      await sleep(200, ctx.signal);
      return "Reconnection test completed";
    },
  );

  const optional = server.tool(
    "test_optional_tool",
    { description: "Appears and disappears with test_toggle_tool" },
    () => "optional tool called",
  );
  server.tool(
    "test_toggle_tool",
    { description: "Enables or disables test_optional_tool (tools/list_changed)" },
    () => {
      if (optional.enabled) optional.disable();
      else optional.enable();
      return `test_optional_tool is now ${optional.enabled ? "enabled" : "disabled"}`;
    },
  );

  server.tool(
    "test_update_watched_resource",
    {
      description: "Changes test://watched-resource (notifications/resources/updated)",
      input: z.object({ text: z.string() }),
    },
    ({ text: value }) => {
      state.watched = value;
      server.resourceUpdated("test://watched-resource");
      return "updated";
    },
  );
}
