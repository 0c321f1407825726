/**
 * For each revision: connect the mcpkit client to the everything server in memory, call
 * every method, and check every message either side sent against that revision's
 * schema.json (the definition its method selects, plus the JSON-RPC envelope).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Exercised, exerciseEverything, type Outcome } from "./exercise.js";
import { flat, openHarness, responseTo, wireProblems } from "./harness.js";
import { atLeast, ERRATA, REVISIONS, schemaFor, type TestedRevision } from "./schema-check.js";

const runs = new Map<TestedRevision, Exercised>();

beforeAll(async () => {
  await Promise.all(
    REVISIONS.map(async (revision) => {
      const harness = await openHarness(revision, {
        protocolVersion: revision,
        sampling: true,
        samplingTools: revision === "2025-11-25",
        elicitation: atLeast(revision, "2025-06-18"),
        elicitationUrl: revision === "2025-11-25",
        roots: true,
      });
      runs.set(revision, await exerciseEverything(harness));
    }),
  );
});

afterAll(async () => {
  await Promise.all([...runs.values()].map((r) => r.harness.close()));
});

function run(revision: TestedRevision): Exercised {
  const found = runs.get(revision);
  if (!found) throw new Error(`${revision} was not exercised`);
  return found;
}

/** The definitions the suite relies on, under each revision's names. */
function expectedDefinitions(revision: TestedRevision): string[] {
  const names = [
    "InitializeResult",
    "ListToolsResult",
    "CallToolResult",
    "ListResourcesResult",
    "ListResourceTemplatesResult",
    "ReadResourceResult",
    "ListPromptsResult",
    "GetPromptResult",
    "CompleteResult",
    "EmptyResult",
    "CreateMessageRequest",
    "ListRootsRequest",
    "PingRequest",
    "ProgressNotification",
    "LoggingMessageNotification",
    "ToolListChangedNotification",
    "ResourceUpdatedNotification",
    "JSONRPCRequest",
    "JSONRPCNotification",
    "ServerRequest",
    "ServerNotification",
    "ClientRequest",
    "ClientNotification",
  ];
  if (atLeast(revision, "2025-06-18")) names.push("ElicitRequest", "ElicitResult");
  if (revision === "2025-11-25")
    names.push("JSONRPCResultResponse", "JSONRPCErrorResponse", "ElicitationCompleteNotification");
  else names.push("JSONRPCResponse", "JSONRPCError");
  if (revision === "2025-03-26") names.push("JSONRPCBatchRequest", "JSONRPCBatchResponse");
  return names;
}

/** Tools expected to end in a JSON-RPC error in this revision (the client lacks the feature). */
function failingTools(revision: TestedRevision): string[] {
  const failing: string[] = [];
  if (!atLeast(revision, "2025-06-18"))
    failing.push(
      "test_elicitation",
      "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums",
      // The 2026-07-28 fixtures that elicit work in the stateful era too, from 2025-06-18.
      "test_input_required_result_elicitation",
      "test_input_required_result_multi_round",
      "test_input_required_result_multiple_inputs",
      "test_input_required_result_request_state",
      "test_input_required_result_tampered_state",
      "test_streaming_elicitation",
      // The task fixtures that elicit, called directly.
      "confirm_delete",
      "multi_input",
    );
  if (revision !== "2025-11-25") failing.push("test_sampling_with_tools", "test_url_elicitation");
  return failing.sort();
}

describe.each(REVISIONS)("revision %s", (revision) => {
  it("loads schema.json with its dialect and the definitions this suite uses", () => {
    const schema = schemaFor(revision);
    expect(schema.draft).toBe(revision === "2025-11-25" ? "2020-12" : "draft-07");
    const missing = expectedDefinitions(revision).filter((name) => !schema.has(name));
    expect(missing, `${revision} lacks definitions`).toEqual([]);
  });

  it("still has the schema.json errata this suite patches (drop an erratum once the spec fixes it)", () => {
    const expected = ERRATA.filter((e) => e.revisions.includes(revision)).map((e) => e.what);
    expect(schemaFor(revision).patched.map((e) => e.what)).toEqual(expected);
  });

  it("the validators reject what the revision does not allow", () => {
    const schema = schemaFor(revision);
    expect(schema.validate("CallToolResult", { content: "not an array" })).not.toEqual([]);
    expect(schema.validate("InitializeResult", { protocolVersion: revision })).not.toEqual([]);
    const audio = { content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }] };
    expect(schema.validate("CallToolResult", audio).length === 0).toBe(atLeast(revision, "2025-03-26"));
    const link = { content: [{ type: "resource_link", uri: "test://x", name: "x" }] };
    expect(schema.validate("CallToolResult", link).length === 0).toBe(atLeast(revision, "2025-06-18"));
    // Open schemas accept extra fields; the closed copy does not.
    const titled = { tools: [{ name: "t", title: "T", inputSchema: { type: "object" } }] };
    expect(schema.validate("ListToolsResult", titled)).toEqual([]);
    expect(schema.undeclared("ListToolsResult", titled).length === 0).toBe(atLeast(revision, "2025-06-18"));
  });

  it("every message the server sent matches the schema", () => {
    const { harness } = run(revision);
    expect(harness.wire.server.length).toBeGreaterThan(40);
    expect(wireProblems(harness, "server")).toEqual([]);
  });

  it("every message the client sent matches the schema", () => {
    const { harness } = run(revision);
    expect(wireProblems(harness, "client")).toEqual([]);
  });

  it("the server sends no field the revision does not define", () => {
    expect(wireProblems(run(revision).harness, "server", true)).toEqual([]);
  });

  it("the client sends no field the revision does not define", () => {
    expect(wireProblems(run(revision).harness, "client", true)).toEqual([]);
  });

  it("covered every request, server request and notification of the revision", () => {
    const { harness, listedTools, tools } = run(revision);
    const schema = schemaFor(revision);
    const clientSent = new Set(flat(harness.wire.client).map((m) => m.method as string | undefined));
    const serverSent = new Set(flat(harness.wire.server).map((m) => m.method as string | undefined));
    // Tasks (2025-11-25): the server runs them; the client runs none (it declares no tasks).
    const notTasks = (method: string) => !method.startsWith("tasks/") && method !== "notifications/tasks/status";
    const clientRequests = [...schema.union("ClientRequest").keys()];
    expect(clientRequests.filter((m) => !clientSent.has(m))).toEqual([]);
    const serverRequests = [...schema.union("ServerRequest").keys()].filter(notTasks);
    expect(serverRequests.filter((m) => !serverSent.has(m))).toEqual([]);
    const notifications = [
      "notifications/progress",
      "notifications/message",
      "notifications/tools/list_changed",
      "notifications/resources/updated",
    ];
    if (revision === "2025-11-25")
      notifications.push("notifications/elicitation/complete", "notifications/tasks/status");
    expect(notifications.filter((m) => !serverSent.has(m))).toEqual([]);
    expect(listedTools.filter((name) => !tools.has(name))).toEqual([]);
    for (const method of ["notifications/cancelled", "notifications/roots/list_changed"])
      expect(clientSent.has(method), method).toBe(true);
    // basic/utilities/cancellation: no response for the cancelled request.
    const cancelled = flat(harness.wire.client).find((m) => m.method === "notifications/cancelled");
    const cancelledId = (cancelled?.params as Record<string, unknown> | undefined)?.requestId;
    expect(responseTo(harness, cancelledId)).toBeUndefined();
    // Both toggles and the trigger announced a change.
    const listChanged = flat(harness.wire.server).filter((m) => m.method === "notifications/tools/list_changed");
    expect(listChanged).toHaveLength(3);
  });

  it("every call came out as expected", () => {
    const { steps, tools, harness } = run(revision);
    const failedSteps = [...steps].filter(([, o]) => !o.ok).map(([label, o]) => [label, o]);
    // The prompt that elicits needs elicitation, which revisions before 2025-06-18 lack.
    const elicitingPrompt = atLeast(revision, "2025-06-18")
      ? []
      : [["prompts/get test_input_required_result_prompt", expect.objectContaining({ ok: false, code: -32600 })]];
    expect(failedSteps).toEqual([
      ...elicitingPrompt,
      ["tools/call test_slow cancelled", expect.objectContaining({ ok: false, message: "This operation was aborted" })],
      ["resources/read unknown", expect.objectContaining({ ok: false, code: -32002 })],
    ]);
    // Tools that run only as tasks are refused to a call without one (the harness sends
    // no `task`); protocol_error_job fails with its JSON-RPC error when called directly.
    const taskOnly = { failing_job: -32601, protocol_error_job: -32603, test_tool_with_task: -32601 };
    for (const [name, code] of Object.entries(taskOnly))
      expect(tools.get(name), name).toMatchObject({ ok: false, code });
    // A result that breaks its outputSchema is refused by the client where structured output exists.
    const mismatch = tools.get("test_output_schema_mismatch");
    if (atLeast(revision, "2025-06-18"))
      expect(mismatch).toMatchObject({ ok: false, message: expect.stringContaining("outputSchema") });
    else expect(mismatch).toMatchObject({ ok: true, isError: false });
    const failed = [...tools]
      .filter(([name, o]) => !o.ok && !Object.hasOwn(taskOnly, name) && name !== "test_output_schema_mismatch")
      .map(([name]) => name);
    expect(failed.sort()).toEqual(failingTools(revision));
    const isError = [...tools].filter(([, o]) => o.ok && o.isError).map(([name]) => name);
    // 2025-06-18 forms cannot express multi-selects, so that fixture fails inside the tool.
    const expectedIsError =
      revision === "2025-06-18" ? ["test_elicitation_sep1330_enums", "test_error_handling"] : ["test_error_handling"];
    expect(isError.sort()).toEqual(expectedIsError);
    for (const name of failingTools(revision))
      expect((tools.get(name) as Outcome & { ok: false }).code, name).toBe(-32600);
    expect(harness.serverErrors).toEqual([]);
    expect(harness.clientErrors).toEqual([]);
  });
});
