import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

describe("server/prompts", () => {
  it("lists prompts with their arguments, from specs and from a schema", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.prompt(
      "review",
      {
        title: "Review",
        description: "Review code",
        args: { code: { description: "The code", required: true }, lang: {} },
      },
      ({ code }) => `Review ${code}`,
    );
    server.prompt(
      "summarize",
      { args: z.object({ text: z.string().describe("What to summarize"), words: z.string().optional() }) },
      ({ text }) => `Summarize ${text}`,
    );
    const { client } = await connectInMemory(server);
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: "review",
        title: "Review",
        description: "Review code",
        arguments: [{ name: "code", description: "The code", required: true }, { name: "lang" }],
      },
      {
        name: "summarize",
        arguments: [
          { name: "text", description: "What to summarize", required: true },
          { name: "words", required: false },
        ],
      },
    ]);
  });

  it("refuses a missing required argument with -32602", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.prompt("review", { args: { code: { required: true } } }, ({ code }) => code ?? "");
    server.prompt("typed", { args: z.object({ n: z.string().regex(/^\d+$/) }) }, ({ n }) => n);
    const { client } = await connectInMemory(server);
    await expect(client.getPrompt("review", {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("missing required argument code"),
    });
    await expect(client.getPrompt("typed", { n: "abc" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt("nope")).rejects.toMatchObject({ code: -32602, message: "Unknown prompt: nope" });
    expect(await client.getPrompt("typed", { n: "42" })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "42" } }],
    });
  });

  it("returns messages with every content type, and a description", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.prompt("rich", {}, () => ({
      description: "All kinds",
      messages: [
        { role: "user", content: { type: "text", text: "t" } },
        { role: "assistant", content: { type: "image", data: "AA==", mimeType: "image/png" } },
        { role: "user", content: { type: "audio", data: "AA==", mimeType: "audio/wav" } },
        { role: "user", content: { type: "resource_link", uri: "file:///x", name: "x" } },
        { role: "user", content: { type: "resource", resource: { uri: "file:///y", text: "y" } } },
      ],
    }));
    const { client } = await connectInMemory(server);
    const result = await client.getPrompt("rich");
    expect(result.description).toBe("All kinds");
    expect(result.messages.map((m) => m.content.type)).toEqual(["text", "image", "audio", "resource_link", "resource"]);
  });
});
