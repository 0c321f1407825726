import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { McpError } from "../src/jsonrpc/errors.js";
import { audio, createServer, embedded, image, resourceLink, structured } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

describe("server/tools: declaring tools", () => {
  it("publishes JSON Schema generated from zod, valibot and arktype, and raw JSON Schema as given", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("zod", { input: z.object({ a: z.string(), n: z.number().optional() }) }, () => "");
    server.tool("valibot", { input: toStandardJsonSchema(v.object({ a: v.string() })) }, () => "");
    server.tool("arktype", { input: type({ a: "string" }) }, () => "");
    const raw = { type: "object", properties: { a: { type: "string", format: "email" } }, required: ["a"] };
    server.tool("raw", { input: raw }, () => "");
    server.tool("none", {}, () => "");
    const { client } = await connectInMemory(server);
    const tools = Object.fromEntries((await client.tools()).map((t) => [t.name, t.inputSchema]));
    for (const name of ["zod", "valibot", "arktype"]) {
      expect(tools[name]).toMatchObject({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    }
    expect(tools.raw).toEqual(raw);
    expect(tools.none).toEqual({ type: "object", additionalProperties: false });
  });

  it("validates arguments with each schema kind and passes the parsed value to the handler", async () => {
    const server = createServer({ name: "s", version: "1" });
    const seen: unknown[] = [];
    const handler = (args: unknown) => {
      seen.push(args);
      return "ok";
    };
    server.tool("zod", { input: z.object({ n: z.coerce.number() }) }, handler);
    server.tool("valibot", { input: toStandardJsonSchema(v.object({ n: v.number() })) }, handler);
    server.tool("arktype", { input: type({ n: "number" }) }, handler);
    server.tool("raw", { input: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }, handler);
    const { client } = await connectInMemory(server);
    for (const name of ["zod", "valibot", "arktype", "raw"]) {
      const bad = await client.callTool(name, { n: name === "zod" ? "not a number" : "x" });
      expect(bad.isError, name).toBe(true);
      expect(bad.content[0]).toMatchObject({
        type: "text",
        text: expect.stringContaining(`Invalid arguments for tool ${name}`),
      });
      const good = await client.callTool(name, { n: name === "zod" ? "5" : 5 });
      expect(good.isError, name).toBeUndefined();
    }
    expect(seen).toEqual([{ n: 5 }, { n: 5 }, { n: 5 }, { n: 5 }]);
  });

  it("refuses a malformed JSON Schema at registration, and reports one Ajv cannot compile on use", async () => {
    const server = createServer({ name: "s", version: "1", onError: () => {} });
    expect(() => server.tool("typo", { input: { type: "objct" } }, () => "")).toThrow(
      'Invalid JSON Schema: "type" must name JSON types, not "objct"',
    );
    expect(() => server.tool("list", { input: [] as never }, () => "")).toThrow("a schema must be an object");
    // A subschema's type too, wherever it sits, named by its path.
    expect(() =>
      server.tool("nested", { input: { type: "object", properties: { a: { type: "strng" } } } }, () => ""),
    ).toThrow('Invalid JSON Schema: at properties.a: "type" must name JSON types, not "strng"');
    expect(() =>
      server.tool(
        "deeper",
        { input: { type: "object", properties: { l: { type: "array", items: { anyOf: [{ type: "integr" }] } } } } },
        () => "",
      ),
    ).toThrow('at properties.l.items.anyOf[0]: "type" must name JSON types, not "integr"');
    // What only the validator knows surfaces when it compiles the schema, on the first call.
    server.tool("deep", { input: { type: "object", properties: { a: { minLength: "five" } } } }, () => "ok");
    const { client } = await connectInMemory(server);
    await expect(client.callTool("deep", { a: "x" })).rejects.toMatchObject({ code: -32603 });
    expect((await client.tools()).map((t) => t.name)).toEqual(["deep"]); // the server keeps serving
  });

  it("compiles schemas once, at registration, not per call", async () => {
    const jsonSchema = vi.fn(() => ({ type: "object", properties: {} }));
    const validate = vi.fn((value: unknown) => ({ value }));
    const schema = {
      "~standard": { version: 1, vendor: "test", validate, jsonSchema: { input: jsonSchema, output: jsonSchema } },
    };
    const server = createServer({ name: "s", version: "1" });
    server.tool("t", { input: schema as never }, () => "ok");
    expect(jsonSchema).toHaveBeenCalledOnce();
    const { client } = await connectInMemory(server);
    for (let i = 0; i < 3; i++) await client.callTool("t", {});
    expect(jsonSchema).toHaveBeenCalledOnce();
    expect(validate).toHaveBeenCalledTimes(3);
  });

  it("refuses bad declarations with a clear message", () => {
    const server = createServer({ name: "s", version: "1" });
    expect(() => server.tool("has space", {}, () => "")).toThrow(/Tool name/);
    // server/tools §Tool Names allows A–Z a–z 0–9 _ - . only: a "/" is refused, and the error says which character.
    expect(() => server.tool("files/read", {}, () => "")).toThrow(
      'Tool name "files/read" must be 1–128 characters of A–Z, a–z, 0–9, "_", "-" and "." (server/tools §Tool Names): "/" is not allowed',
    );
    expect(() => server.tool("x".repeat(129), {}, () => "")).toThrow(/129 characters long \(at most 128\)/);
    expect(() => server.tool("", {}, () => "")).toThrow(/it is empty/);
    server.tool("admin.tools_list-v2", {}, () => "");
    expect(() => server.tool("t", { input: z.string() }, () => "")).toThrow(/must describe an object/);
    expect(() => server.tool("t", { input: v.object({}) as never }, () => "")).toThrow(/toStandardJsonSchema/);
    server.tool("dup", {}, () => "");
    expect(() => server.tool("dup", {}, () => "")).toThrow(/already registered/);
  });

  it("lists tools in a deterministic order with title, annotations, icons, outputSchema and _meta", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("zeta", {}, () => "");
    server.tool(
      "alpha",
      {
        title: "Alpha",
        description: "First",
        annotations: { readOnlyHint: true, destructiveHint: false },
        icons: [{ src: "https://x/i.png" }],
        output: z.object({ x: z.number() }),
        _meta: { "example.com/k": 1 },
      },
      () => structured({ x: 1 }),
    );
    server.tool("mid", {}, () => "");
    const { client } = await connectInMemory(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["alpha", "mid", "zeta"]);
    expect(tools[0]).toMatchObject({
      title: "Alpha",
      description: "First",
      annotations: { readOnlyHint: true, destructiveHint: false },
      icons: [{ src: "https://x/i.png" }],
      outputSchema: { type: "object", properties: { x: { type: "number" } } },
      _meta: { "example.com/k": 1 },
    });
  });
});

describe("server/tools: calling tools", () => {
  it("answers an unknown tool with -32602", async () => {
    const { client } = await connectInMemory(createServer({ name: "s", version: "1", capabilities: { tools: {} } }));
    await expect(client.callTool("nope")).rejects.toMatchObject({ code: -32602, message: "Unknown tool: nope" });
  });

  it("answers non-object arguments with -32602", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("t", {}, () => "");
    const { client } = await connectInMemory(server);
    await expect(client.request("tools/call", { name: "t", arguments: [1] })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request("tools/call", { arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("returns every content type", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("all", {}, () => ({
      content: [
        { type: "text", text: "t" },
        image(new Uint8Array([1, 2, 3]), "image/png"),
        audio("AAA=", "audio/wav"),
        resourceLink({ uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" }),
        embedded({ uri: "file:///b.txt", text: "b" }, { annotations: { audience: ["user"], priority: 1 } }),
      ],
    }));
    const { client } = await connectInMemory(server);
    const result = await client.callTool("all");
    expect(result.content).toEqual([
      { type: "text", text: "t" },
      { type: "image", data: "AQID", mimeType: "image/png" },
      { type: "audio", data: "AAA=", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      {
        type: "resource",
        resource: { uri: "file:///b.txt", text: "b" },
        annotations: { audience: ["user"], priority: 1 },
      },
    ]);
  });

  it("turns a thrown error into an isError result without a stack trace", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("boom", {}, () => {
      throw new Error("disk is full");
    });
    const { client } = await connectInMemory(server);
    const result = await client.callTool("boom");
    expect(result).toEqual({ content: [{ type: "text", text: "disk is full" }], isError: true });
  });

  it("lets a handler answer with a protocol error by throwing McpError", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("strict", {}, () => {
      throw new McpError(-32602, "no such record", { id: 4 });
    });
    const { client } = await connectInMemory(server);
    await expect(client.callTool("strict")).rejects.toMatchObject({ code: -32602, data: { id: 4 } });
  });

  it("validates structuredContent against outputSchema before sending, and adds the text fallback", async () => {
    const server = createServer({ name: "s", version: "1" });
    const output = z.object({ sum: z.number() });
    server.tool("good", { output }, () => ({ structuredContent: { sum: 3 } }));
    server.tool("wrong", { output }, () => ({ structuredContent: { sum: "three" } as never }));
    // @ts-expect-error the compiler refuses it too; this checks what a plain JavaScript caller gets
    server.tool("missing", { output }, () => "just text");
    server.tool("failed", { output }, () => ({ content: [{ type: "text", text: "nope" }], isError: true }));
    const { client } = await connectInMemory(server);
    expect(await client.callTool("good")).toEqual({
      content: [{ type: "text", text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    const wrong = await client.callTool("wrong");
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toBeUndefined();
    expect(wrong.content[0]).toMatchObject({ text: expect.stringContaining("does not match its outputSchema") });
    expect((await client.callTool("missing")).isError).toBe(true);
    expect(await client.callTool("failed")).toEqual({ content: [{ type: "text", text: "nope" }], isError: true });
  });

  it("answers argument errors with -32602 in revisions before 2025-11-25", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("t", { input: z.object({ a: z.string() }) }, () => "");
    const { client } = await connectInMemory(server, { protocolVersion: "2025-06-18" });
    await expect(client.callTool("t", { a: 1 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid arguments for tool t"),
    });
  });
});
