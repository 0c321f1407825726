/**
 * What must differ between revisions, asserted on the wire: version negotiation, content
 * types and fields older revisions lack, tool argument errors, elicitation, batches.
 * Every test also checks what the server sent against the negotiated revision's schema.
 */
import { McpError } from "mcpkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  flat,
  type Harness,
  type HarnessOptions,
  openHarness,
  responseTo,
  toolCalls,
  waitFor,
  wireProblems,
} from "./harness.js";
import { atLeast, checkMessage, REVISIONS, schemaFor, type TestedRevision } from "./schema-check.js";

type Message = Record<string, unknown>;
type Content = { type: string; [key: string]: unknown };

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

async function connect(revision: TestedRevision, options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await openHarness(revision, { protocolVersion: revision, ...options });
  open.push(h);
  return h;
}

/** The result the server sent for the last tools/call of `name` (from the wire, not the client). */
function lastCall(h: Harness, name: string): { request: Message; response: Message } {
  const calls = toolCalls(h, name);
  const last = calls[calls.length - 1];
  if (!last?.response) throw new Error(`no response to tools/call ${name}`);
  return { request: last.request, response: last.response };
}

function resultContent(response: Message): Content[] {
  return ((response.result as Message | undefined)?.content ?? []) as Content[];
}

describe("version negotiation", () => {
  it.each(REVISIONS)("a client asking for %s gets it", async (revision) => {
    const h = await connect(revision);
    const init = responseTo(h, 0);
    expect((init?.result as Message | undefined)?.protocolVersion).toBe(revision);
    expect(h.client.protocolVersion).toBe(revision);
    expect(h.session.revision).toBe(revision);
    expect(wireProblems(h, "server")).toEqual([]);
  });

  it("an unknown version (1999-01-01) is answered with 2025-11-25", async () => {
    const h = await openHarness("2025-11-25", { protocolVersion: "1999-01-01" });
    open.push(h);
    const request = h.wire.client[0] as unknown as Message;
    expect((request.params as Message).protocolVersion).toBe("1999-01-01");
    expect((responseTo(h, 0)?.result as Message | undefined)?.protocolVersion).toBe("2025-11-25");
    expect(h.client.protocolVersion).toBe("2025-11-25");
    await h.client.ping();
    expect(wireProblems(h, "server")).toEqual([]);
  });
});

describe("fields and content by revision", () => {
  it.each(REVISIONS)(
    "%s: serverInfo carries title from 2025-06-18, icons/websiteUrl/description from 2025-11-25",
    async (revision) => {
      const h = await connect(revision);
      const info = ((responseTo(h, 0)?.result as Message | undefined)?.serverInfo ?? {}) as Message;
      expect(info.name).toBe("mcpkit-everything");
      expect("title" in info).toBe(atLeast(revision, "2025-06-18"));
      for (const field of ["icons", "websiteUrl", "description"])
        expect(field in info, field).toBe(revision === "2025-11-25");
      expect(wireProblems(h, "server", true)).toEqual([]);
    },
  );

  it.each(REVISIONS)(
    "%s: tools carry annotations from 2025-03-26, title and outputSchema from 2025-06-18",
    async (revision) => {
      const h = await connect(revision);
      const { tools } = await h.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t as unknown as Message]));
      const echo = byName.get("echo") as Message;
      const add = byName.get("add") as Message;
      if (revision === "2024-11-05") {
        for (const tool of tools) {
          const fields = Object.keys(tool).filter((k) => ["title", "icons", "outputSchema", "annotations"].includes(k));
          expect(fields, `2024-11-05 tool ${tool.name}`).toEqual([]);
        }
      }
      expect("annotations" in echo).toBe(atLeast(revision, "2025-03-26"));
      expect("title" in echo).toBe(atLeast(revision, "2025-06-18"));
      expect("title" in add).toBe(atLeast(revision, "2025-06-18"));
      expect("outputSchema" in add).toBe(atLeast(revision, "2025-06-18"));
      expect(wireProblems(h, "server")).toEqual([]);
    },
  );

  it.each(REVISIONS)("%s: add returns structuredContent only from 2025-06-18", async (revision) => {
    const h = await connect(revision);
    await h.client.callTool("add", { a: 2, b: 3 });
    const result = lastCall(h, "add").response.result as Message;
    if (atLeast(revision, "2025-06-18")) expect(result.structuredContent).toEqual({ sum: 5 });
    else expect("structuredContent" in result).toBe(false);
    // Older clients read the same value as text (server/tools §Structured Content).
    expect(resultContent(lastCall(h, "add").response)).toEqual([{ type: "text", text: '{"sum":5}' }]);
    expect(wireProblems(h, "server", true)).toEqual([]);
  });

  it.each(REVISIONS)("%s: test_audio_content is audio from 2025-03-26, text in 2024-11-05", async (revision) => {
    const h = await connect(revision);
    await h.client.callTool("test_audio_content");
    const [block, ...rest] = resultContent(lastCall(h, "test_audio_content").response);
    expect(rest).toEqual([]);
    if (revision === "2024-11-05") {
      expect(block?.type).toBe("text");
      expect(block?.text).toMatch(/audio/);
      expect("data" in (block ?? {})).toBe(false);
    } else {
      expect(block).toMatchObject({ type: "audio", mimeType: "audio/wav" });
      expect(typeof block?.data).toBe("string");
    }
    expect(wireProblems(h, "server", true)).toEqual([]);
  });

  it.each(REVISIONS)("%s: test_resource_link is a resource_link from 2025-06-18, text before", async (revision) => {
    const h = await connect(revision);
    await h.client.callTool("test_resource_link");
    const [block, ...rest] = resultContent(lastCall(h, "test_resource_link").response);
    expect(rest).toEqual([]);
    if (atLeast(revision, "2025-06-18")) {
      expect(block).toMatchObject({ type: "resource_link", uri: "test://static-text", name: "static-text" });
    } else {
      expect(block?.type).toBe("text");
      expect(block?.text).toContain("test://static-text");
    }
    expect(wireProblems(h, "server", true)).toEqual([]);
  });

  it.each(REVISIONS)("%s: progress notifications carry message from 2025-03-26", async (revision) => {
    const h = await connect(revision);
    const seen: unknown[] = [];
    await h.client.callTool("test_tool_with_progress", {}, { onprogress: (p) => seen.push(p) });
    const progress = flat(h.wire.server).filter((m) => m.method === "notifications/progress");
    expect(progress).toHaveLength(3);
    for (const n of progress) expect("message" in (n.params as Message)).toBe(revision !== "2024-11-05");
    expect(seen).toHaveLength(3);
    expect(wireProblems(h, "server", true)).toEqual([]);
  });
});

describe("tool argument validation", () => {
  it.each(REVISIONS)("%s: add with a string argument", async (revision) => {
    const h = await connect(revision);
    const outcome = await h.client.callTool("add", { a: "two", b: 3 }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const { response } = lastCall(h, "add");
    if (revision === "2025-11-25") {
      // SEP-1303: a tool execution error the model can see and correct.
      expect(response.error).toBeUndefined();
      expect(response.result).toMatchObject({ isError: true });
      expect(resultContent(response)[0]?.text).toMatch(/Invalid arguments for tool add/);
      expect("result" in outcome && outcome.result.isError).toBe(true);
    } else {
      expect(response.result).toBeUndefined();
      expect((response.error as Message | undefined)?.code).toBe(-32602);
      expect("error" in outcome && outcome.error instanceof McpError && outcome.error.code).toBe(-32602);
    }
    expect(wireProblems(h, "server", true)).toEqual([]);
  });
});

describe("elicitation", () => {
  it.each(REVISIONS)("%s: test_elicitation (client declares elicitation in every revision)", async (revision) => {
    const h = await connect(revision, { elicitation: true });
    expect(h.client.capabilities.elicitation).toBeDefined();
    const outcome = await h.client.callTool("test_elicitation", { message: "Who are you?" }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const requests = flat(h.wire.server).filter((m) => m.method === "elicitation/create");
    if (atLeast(revision, "2025-06-18")) {
      expect(requests).toHaveLength(1);
      expect("result" in outcome && outcome.result.isError).toBeFalsy();
      // The mode field arrived with URL mode in 2025-11-25.
      expect((requests[0]?.params as Message | undefined)?.mode).toBe(revision === "2025-11-25" ? "form" : undefined);
    } else {
      expect(requests).toEqual([]);
      expect("error" in outcome && outcome.error instanceof McpError).toBe(true);
      expect((lastCall(h, "test_elicitation").response.error as Message | undefined)?.code).toBeTypeOf("number");
    }
    expect(wireProblems(h, "server", true)).toEqual([]);
  });
});

describe("capabilities a client declares beyond its negotiated revision", () => {
  // A client may declare the same capabilities whatever version it asks for; the server must
  // still send only what the negotiated revision defines (or fail the tool without sending).
  const older = REVISIONS.filter((r) => r !== "2025-11-25");

  it.each(older)("%s: test_sampling_with_tools with sampling.tools declared", async (revision) => {
    const h = await connect(revision, { sampling: true, samplingTools: true });
    const outcome = await h.client.callTool("test_sampling_with_tools", { prompt: "What time is it?" }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // Not sent: the tool fails with the capability it needed, named for this revision.
    expect(flat(h.wire.server).filter((m) => m.method === "sampling/createMessage")).toEqual([]);
    expect("error" in outcome && outcome.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining(`revision ${revision} has none`),
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
    expect(wireProblems(h, "server")).toEqual([]);
    expect(wireProblems(h, "server", true)).toEqual([]);
  });

  it.each(older)("%s: test_url_elicitation with elicitation.url declared", async (revision) => {
    const h = await connect(revision, { elicitation: true, elicitationUrl: true });
    const outcome = await h.client.callTool("test_url_elicitation", { url: "https://example.com/authorize" }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // Not sent: the tool fails with the capability it needed (no elicitation at all before 2025-06-18).
    expect(flat(h.wire.server).filter((m) => m.method === "elicitation/create")).toEqual([]);
    expect("error" in outcome && outcome.error).toMatchObject({
      code: -32600,
      data: { requiredCapabilities: { elicitation: atLeast(revision, "2025-06-18") ? { url: {} } : {} } },
    });
    expect(wireProblems(h, "server")).toEqual([]);
    expect(wireProblems(h, "server", true)).toEqual([]);
  });
});

describe("JSON-RPC batches", () => {
  const batch = [
    { jsonrpc: "2.0", id: "batch-1", method: "ping" },
    { jsonrpc: "2.0", id: "batch-2", method: "tools/list" },
    { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
  ];

  /** Sends the batch raw through the client's transport and returns the server's answer. */
  async function sendBatch(h: Harness): Promise<unknown> {
    const before = h.wire.server.length;
    h.clientTransport.send(batch as never);
    await waitFor(() => h.wire.server.length > before, "an answer to the batch");
    // Anything else the server sends for the batch comes before its answer to a later request.
    await h.client.ping();
    return h.wire.server[before];
  }

  it.each(REVISIONS)("%s: answered only in 2025-03-26, refused with -32600 otherwise", async (revision) => {
    const h = await connect(revision, { roots: true });
    const answer = await sendBatch(h);
    const ids = flat(h.wire.server).map((m) => m.id);
    if (revision === "2025-03-26") {
      expect(Array.isArray(answer)).toBe(true);
      const responses = answer as Message[];
      expect(responses.map((r) => r.id).sort()).toEqual(["batch-1", "batch-2"]);
      expect(responses.every((r) => "result" in r)).toBe(true);
      // The batch as a whole and each response against the schema (JSONRPCBatchResponse exists here).
      expect(wireProblems(h, "server", true)).toEqual([]);
    } else {
      expect(Array.isArray(answer)).toBe(false);
      expect((answer as Message).error).toMatchObject({ code: -32600 });
      // Nothing in the batch was run.
      expect(ids).not.toContain("batch-1");
      expect(ids).not.toContain("batch-2");
      // Nothing but the answer to the later ping follows the refusal.
      const after = flat(h.wire.server.slice(h.wire.server.indexOf(answer as never) + 1));
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ result: {} });
      expect(String(after[0]?.id)).not.toMatch(/^batch-/);
    }
  });

  it.each(REVISIONS.filter((r) => r !== "2025-03-26"))("%s: the batch refusal matches the schema", async (revision) => {
    const h = await connect(revision, { roots: true });
    const refusal = (await sendBatch(h)) as Message;
    const schema = schemaFor(revision);
    const errorDefinition = schema.pick("JSONRPCErrorResponse", "JSONRPCError");
    const idRequired = ((schema.definition(errorDefinition).required ?? []) as string[]).includes("id");
    const check = (message: Message) =>
      checkMessage(schema, message, { from: "server", requestMethod: () => undefined });
    if (idRequired) {
      // Schema gap: before 2025-11-25 every error response needs a string or integer id, so an
      // error about a message whose id cannot be read (JSON-RPC 2.0 §5: id null) has no valid
      // form. Check everything but the id, and that the id is JSON-RPC's null.
      expect(refusal.id).toBeNull();
      expect(check({ ...refusal, id: "unreadable" })).toEqual([]);
    } else {
      // 2025-11-25 makes the id optional for exactly this case ("except in error cases where
      // the ID could not be read"): it must be left out, as null is not a RequestId.
      expect(check(refusal)).toEqual([]);
    }
  });
});
