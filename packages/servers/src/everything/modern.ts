import type { McpServer } from "mcpkit/server";
import { z } from "zod";

/**
 * Fixtures for the 2026-07-28 conformance scenarios: multi round-trip requests (written
 * with the same ctx.elicit / ctx.sample / ctx.listRoots as the stateful era), list
 * changes for subscriptions/listen, logging by request, capabilities and x-mcp-header.
 */
export function registerModernFixtures(server: McpServer): void {
  const nameForm = { type: "object" as const, properties: { name: { type: "string" } }, required: ["name"] };

  server.tool("test_input_required_result_elicitation", { description: "Asks for a name (MRTR)" }, async (_a, ctx) => {
    const answer = await ctx.elicit({ key: "user_name", message: "What is your name?", schema: nameForm });
    return `Hello, ${answer.content?.name ?? "stranger"}!`;
  });

  server.tool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model (MRTR)" },
    async (_a, ctx) => {
      const answer = await ctx.sample(
        {
          messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
          maxTokens: 100,
        },
        { key: "capital_question" },
      );
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return `The model said: ${content?.type === "text" ? content.text : JSON.stringify(content)}`;
    },
  );

  server.tool(
    "test_input_required_result_list_roots",
    { description: "Lists the client's roots (MRTR)" },
    async (_a, ctx) => {
      const roots = await ctx.listRoots({ key: "client_roots" });
      return `Roots: ${roots.map((r) => r.uri).join(", ") || "(none)"}`;
    },
  );

  server.tool(
    "test_input_required_result_request_state",
    { description: "Round-trips signed request state" },
    async (_a, ctx) => {
      const answer = await ctx.elicit({
        key: "confirm",
        message: "Please confirm",
        schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      // Reaching here on a retry means the signed requestState verified.
      return `state-ok: confirmed=${String(answer.content?.ok)}`;
    },
  );

  server.tool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks for three inputs in one round" },
    async (_a, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        ctx.elicit({ key: "user_name", message: "What is your name?", schema: nameForm }),
        ctx.sample(
          { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
          { key: "greeting" },
        ),
        ctx.listRoots({ key: "client_roots" }),
      ]);
      const text = Array.isArray(greeting.content) ? greeting.content[0] : greeting.content;
      return `name=${String(name.content?.name)}, greeting=${text?.type === "text" ? text.text : "?"}, roots=${roots.length}`;
    },
  );

  server.tool(
    "test_input_required_result_multi_round",
    { description: "Asks twice, one round after the other" },
    async (_a, ctx) => {
      const step1 = await ctx.elicit({ key: "step1", message: "Step 1: What is your name?", schema: nameForm });
      const step2 = await ctx.elicit({
        key: "step2",
        message: "Step 2: What is your favorite color?",
        schema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
      });
      return `${String(step1.content?.name)} likes ${String(step2.content?.color)}`;
    },
  );

  server.tool(
    "test_input_required_result_tampered_state",
    { description: "Rejects a tampered requestState" },
    async (_a, ctx) => {
      const answer = await ctx.elicit({
        key: "confirm",
        message: "Please confirm",
        schema: { type: "object", properties: { ok: { type: "boolean" } } },
      });
      return `state-ok: ${answer.action}`;
    },
  );

  server.tool(
    "test_input_required_result_capabilities",
    { description: "Asks only for what the client declared" },
    async (_a, ctx) => {
      const caps = ctx.client.capabilities;
      const asked: Promise<unknown>[] = [];
      if (caps.elicitation)
        asked.push(ctx.elicit({ key: "user_name", message: "What is your name?", schema: nameForm }));
      if (caps.sampling) {
        asked.push(
          ctx.sample(
            { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 20 },
            { key: "greeting" },
          ),
        );
      }
      if (caps.roots) asked.push(ctx.listRoots({ key: "client_roots" }));
      await Promise.all(asked);
      return `asked for ${asked.length} input(s)`;
    },
  );

  server.prompt(
    "test_input_required_result_prompt",
    { description: "A prompt that needs context first (MRTR)" },
    async (_a, ctx) => {
      const answer = await ctx.elicit({
        key: "user_context",
        message: "What context should the prompt use?",
        schema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
      });
      return `Use this context: ${String(answer.content?.context)}`;
    },
  );

  server.tool(
    "test_streaming_elicitation",
    { description: "Reports progress, then asks for input" },
    async (_a, ctx) => {
      ctx.progress(1, 2, "Preparing the question");
      ctx.log("info", "About to ask for a name", "everything");
      const answer = await ctx.elicit({ key: "user_name", message: "What is your name?", schema: nameForm });
      ctx.progress(2, 2);
      return `Hello, ${String(answer.content?.name)}!`;
    },
  );

  server.tool("test_missing_capability", { description: "Needs the client's sampling capability" }, async (_a, ctx) => {
    const answer = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "ping" } }],
      maxTokens: 5,
    });
    return `sampled: ${answer.model}`;
  });

  server.tool(
    "test_logging_tool",
    { description: "Logs at every level; 2026-07-28 sends them only with a log level in _meta" },
    (_a, ctx) => {
      ctx.log("debug", "debug message", "everything");
      ctx.log("info", "info message", "everything");
      ctx.log("warning", "warning message", "everything");
      return "logged";
    },
  );

  server.tool(
    "test_x_mcp_header",
    {
      description: "Its region parameter travels in the Mcp-Param-Region header too",
      input: {
        type: "object",
        properties: {
          region: { type: "string", description: "The region", "x-mcp-header": "Region" },
          query: { type: "string", description: "Anything" },
        },
        required: ["region"],
      },
    },
    (args) => `region=${String(args.region)}`,
  );

  let toolVersion = 0;
  let extraTool: ReturnType<McpServer["tool"]> | undefined;
  server.tool("test_trigger_tool_change", { description: "Adds or removes a tool (tools/list_changed)" }, () => {
    if (extraTool) {
      extraTool.remove();
      extraTool = undefined;
      return "removed test_dynamic_tool";
    }
    toolVersion++;
    extraTool = server.tool("test_dynamic_tool", { description: `Dynamic tool #${toolVersion}` }, () => "dynamic");
    return "added test_dynamic_tool";
  });

  let extraPrompt: ReturnType<McpServer["prompt"]> | undefined;
  server.tool("test_trigger_prompt_change", { description: "Adds or removes a prompt (prompts/list_changed)" }, () => {
    if (extraPrompt) {
      extraPrompt.remove();
      extraPrompt = undefined;
      return "removed test_dynamic_prompt";
    }
    extraPrompt = server.prompt(
      "test_dynamic_prompt",
      { description: "A prompt that comes and goes" },
      () => "dynamic",
    );
    return "added test_dynamic_prompt";
  });

  // A structured tool for the caching and output scenarios.
  server.tool(
    "test_structured",
    {
      description: "Returns structured content",
      input: z.object({ n: z.number().int().default(1) }),
      output: z.object({ doubled: z.number() }),
    },
    ({ n }) => ({ structuredContent: { doubled: n * 2 } }),
  );
}
