import { describe, expect, it } from "vitest";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

function library() {
  const server = createServer({ name: "lib", version: "1" });
  server.resource(
    "file:///readme.md",
    {
      name: "readme",
      title: "Read me",
      description: "The readme",
      mimeType: "text/markdown",
      size: 12,
      annotations: { audience: ["user"], priority: 0.8, lastModified: "2025-06-01T00:00:00Z" },
    },
    () => "# Hello",
  );
  server.resource("file:///logo.png", { mimeType: "image/png" }, () => new Uint8Array([137, 80, 78, 71]));
  server.resourceTemplate(
    "books://{author}/{title}",
    {
      name: "book",
      mimeType: "text/plain",
      list: () => [{ uri: "books://austen/emma", name: "Emma" }],
    },
    (uri, vars) => `${vars.title} by ${vars.author} (${uri})`,
  );
  return server;
}

describe("server/resources", () => {
  it("lists static resources with their metadata, then those templates list", async () => {
    const { client } = await connectInMemory(library());
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      { uri: "file:///logo.png", name: "file:///logo.png", mimeType: "image/png" },
      {
        uri: "file:///readme.md",
        name: "readme",
        title: "Read me",
        description: "The readme",
        mimeType: "text/markdown",
        size: 12,
        annotations: { audience: ["user"], priority: 0.8, lastModified: "2025-06-01T00:00:00Z" },
      },
      { uri: "books://austen/emma", name: "Emma" },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "books://{author}/{title}", name: "book", mimeType: "text/plain" },
    ]);
  });

  it("reads text and binary (base64) contents", async () => {
    const { client } = await connectInMemory(library());
    expect(await client.readResource("file:///readme.md")).toEqual({
      contents: [{ uri: "file:///readme.md", mimeType: "text/markdown", text: "# Hello" }],
    });
    expect(await client.readResource("file:///logo.png")).toEqual({
      contents: [{ uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw==" }],
    });
  });

  it("reads through a matching template, decoding its variables", async () => {
    const { client } = await connectInMemory(library());
    const result = await client.readResource("books://bront%C3%AB/jane%20eyre");
    expect(result.contents[0]).toMatchObject({ text: "jane eyre by brontë (books://bront%C3%AB/jane%20eyre)" });
  });

  it("answers an unknown resource with -32002 and the uri in data", async () => {
    const { client } = await connectInMemory(library());
    await expect(client.readResource("file:///missing")).rejects.toMatchObject({
      code: -32002,
      message: "Resource not found: file:///missing",
      data: { uri: "file:///missing" },
    });
  });

  it("refuses a resource URI that is not absolute", () => {
    expect(() => createServer({ name: "s", version: "1" }).resource("relative/path", {}, () => "")).toThrow(
      /absolute URI/,
    );
  });

  it("sends notifications/resources/updated only to subscribers, until they unsubscribe", async () => {
    const server = library();
    const a = await connectInMemory(server);
    const b = await connectInMemory(server);
    const seenA: string[] = [];
    const seenB: string[] = [];
    a.client.on("notifications/resources/updated", (p) => seenA.push(p.uri as string));
    b.client.on("notifications/resources/updated", (p) => seenB.push(p.uri as string));
    await a.client.subscribe("file:///readme.md");
    await a.client.subscribe("books://austen/emma");
    server.resourceUpdated("file:///readme.md");
    server.resourceUpdated("books://austen/emma");
    server.resourceUpdated("file:///logo.png");
    // Updates go out at once, and a connection answers in order: after these pings, every
    // update sent before them has arrived.
    await Promise.all([a.client.ping(), b.client.ping()]);
    expect(seenA).toEqual(["file:///readme.md", "books://austen/emma"]);
    expect(seenB).toEqual([]);
    await a.client.unsubscribe("file:///readme.md");
    server.resourceUpdated("file:///readme.md");
    await a.client.ping();
    expect(seenA).toHaveLength(2);
  });

  it("refuses to subscribe to a resource that does not exist", async () => {
    const { client } = await connectInMemory(library());
    await expect(client.subscribe("file:///nope")).rejects.toMatchObject({
      code: -32002,
      data: { uri: "file:///nope" },
    });
  });
});
