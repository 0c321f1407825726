/**
 * Drives every method of the everything server through the mcpkit client, including the
 * tools that make the server send requests and notifications to the client.
 */
import { type CallToolResult, McpError } from "mcpkit";
import { type Harness, ROOTS, toolCalls, waitFor } from "./harness.js";
import { atLeast } from "./schema-check.js";

/** What one call came to: a result (isError or not) or a JSON-RPC error code. */
export type Outcome = { ok: true; isError: boolean } | { ok: false; code: number | undefined; message: string };

export interface Exercised {
  harness: Harness;
  /** Tool name → outcome of its (last) call. */
  tools: Map<string, Outcome>;
  /** Names tools/list returned. */
  listedTools: string[];
  /** Every other call, by label. */
  steps: Map<string, Outcome>;
}

/** Arguments for tools that take any; every other tool is called with {}. */
export const TOOL_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  echo: { text: "hello" },
  add: { a: 2, b: 3 },
  test_slow: { steps: 2, ms: 5 },
  test_sampling: { prompt: "Say hello" },
  test_sampling_with_tools: { prompt: "What time is it?" },
  test_elicitation: { message: "Who are you?" },
  test_url_elicitation: { url: "https://example.com/authorize" },
  json_schema_2020_12_tool: { name: "Ada", contactMethod: "email", email: "ada@example.com" },
  test_update_watched_resource: { text: "Watched resource, version 2" },
  test_x_mcp_header: { region: "eu-west" },
  greet: { name: "Ada" },
  slow_compute: { seconds: 0 },
  confirm_delete: { filename: "notes.txt" },
  test_form_fields: { name: "Ada", age: 36, tags: ["maths"], address: { street: "St James's Square", city: "London" } },
};

/** Tools whose progress we ask for (a progressToken in _meta). */
const WITH_PROGRESS = new Set(["test_tool_with_progress", "test_slow"]);

export async function settle(promise: Promise<unknown>): Promise<Outcome> {
  try {
    const result = (await promise) as Partial<CallToolResult> | undefined;
    return { ok: true, isError: result?.isError === true };
  } catch (error) {
    return {
      ok: false,
      code: error instanceof McpError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

export async function exerciseEverything(h: Harness): Promise<Exercised> {
  const { client, session } = h;
  const steps = new Map<string, Outcome>();
  const step = async (label: string, promise: Promise<unknown>) => {
    steps.set(label, await settle(promise));
  };

  await step("ping", client.ping());
  await step("logging/setLevel", client.setLogLevel("debug"));

  // Resources
  await step("resources/list", client.listResources());
  await step("resources/templates/list", client.listResourceTemplates());
  for (const uri of [
    "test://static-text",
    "test://static-binary",
    "test://watched-resource",
    "test://template/42/data",
  ])
    await step(`resources/read ${uri}`, client.readResource(uri));
  await step("resources/subscribe", client.subscribe("test://watched-resource"));

  // Prompts and completion
  await step("prompts/list", client.listPrompts());
  const promptArgs: Record<string, Record<string, string>> = {
    test_prompt_with_arguments: { arg1: "first", arg2: "second" },
    test_prompt_with_embedded_resource: { resourceUri: "test://static-text" },
  };
  const prompts = await client.listPrompts().catch(() => ({ prompts: [] }));
  for (const prompt of prompts.prompts)
    await step(`prompts/get ${prompt.name}`, client.getPrompt(prompt.name, promptArgs[prompt.name] ?? {}));
  await step(
    "completion/complete prompt",
    client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg2", value: "pa" },
      // `context` arrived in 2025-06-18; the client passes params through as given.
      ...(atLeast(h.revision, "2025-06-18") && { context: { arguments: { arg1: "paris" } } }),
    }),
  );
  await step(
    "completion/complete template",
    client.complete({
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "1" },
    }),
  );

  // Tools: every listed tool, in list order
  const listed = await client.listTools();
  const tools = new Map<string, Outcome>();
  for (const tool of listed.tools) {
    const args = TOOL_ARGS[tool.name] ?? {};
    const options = WITH_PROGRESS.has(tool.name) ? { onprogress: () => {} } : undefined;
    tools.set(tool.name, await settle(client.callTool(tool.name, args, options)));
  }
  // The toggle ran once (test_optional_tool now disabled): once more restores it; each sends list_changed.
  tools.set("test_toggle_tool", await settle(client.callTool("test_toggle_tool")));
  await step("tools/list after toggling", client.listTools());

  // Cancellation (client → server notifications/cancelled): the server must not answer.
  const abort = new AbortController();
  await step(
    "tools/call test_slow cancelled",
    client.callTool("test_slow", { steps: 5, ms: 20 }, { signal: abort.signal, onprogress: () => abort.abort() }),
  );
  // Tasks (2025-11-25): a task that asks on the session, the list, and a cancellation.
  if (h.revision === "2025-11-25") {
    const confirm = await client.callToolAsTask("confirm_delete", { filename: "task.txt" }, { ttlMs: 60_000 });
    await step("tasks: confirm_delete as a task", confirm.task ? confirm.task.result() : Promise.reject(confirm));
    await step("tasks/list", client.request("tasks/list", {}));
    const slow = await client.callToolAsTask("slow_compute", { seconds: 60, label: "cancelled" });
    await step("tasks/cancel", client.request("tasks/cancel", { taskId: slow.task?.taskId ?? "none" }));
  }
  // Roots changed (client → server notification).
  client.setRoots([...ROOTS, { uri: "file:///tmp/mcpkit-other", name: "other" }]);

  // An unknown resource is an error response, which is checked against the schema too.
  await step("resources/read unknown", client.readResource("test://no-such-resource"));
  await step("resources/unsubscribe", client.unsubscribe("test://watched-resource"));

  // Server → client outside any request: ping, and a log message.
  await step("server ping", session.ping());
  session.log("notice", { note: "a log message outside any request" }, "revision-tests");

  // list_changed is sent a microtask after the change; whatever the server sent lands before
  // its answer to a later request.
  await waitFor(() => toolCalls(h, "test_toggle_tool").every((c) => c.response !== undefined), "the toggle responses");
  await client.ping();
  return { harness: h, tools, listedTools: listed.tools.map((t) => t.name), steps };
}
