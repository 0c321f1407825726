import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "mcpkit/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  closeAll,
  connectHttp,
  connectStdio,
  eventually,
  type Fixture,
  makeFixture,
  startHttp,
  textOf,
} from "./helpers.js";

// client/roots: a client that declares roots narrows what the workspace server touches to
// the overlap of its roots and the server's --root directories; per client, never shared.

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterEach(closeAll);
afterAll(() => fx.cleanup());

const root = (...parts: string[]) => ({ uri: pathToFileURL(join(fx.root, ...parts)).href, name: parts.join("/") });

async function allowed(client: Client): Promise<string[]> {
  const result = await call(client, "list_allowed_directories");
  if (result.isError) throw new Error(textOf(result));
  return (result.structuredContent as { directories: string[] }).directories;
}

async function readable(client: Client, path: string): Promise<boolean> {
  const result = await call(client, "read_file", { path });
  if (result.isError) expect(textOf(result)).toMatch(/outside the allowed directories|No directory is accessible/);
  return !result.isError;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("over stdio, protocol %s", (protocolVersion) => {
  it("narrows to the client's roots, and follows them when they change", async () => {
    const { client } = await connectStdio(["--root", fx.root], { protocolVersion, roots: [root("src")] });
    expect(await allowed(client)).toEqual([join(fx.root, "src")]);
    expect(await readable(client, join(fx.root, "src", "index.ts"))).toBe(true);
    expect(await readable(client, "lib/greet.ts")).toBe(true); // relative to the first allowed directory
    expect(await readable(client, join(fx.root, "README.md"))).toBe(false);
    expect(await readable(client, "../README.md")).toBe(false);

    // Legacy: notifications/roots/list_changed drops the session's cached roots. Modern: asked per request.
    client.setRoots([root("docs")]);
    await eventually(async () => (await allowed(client))[0] === join(fx.root, "docs"), "the new roots");
    expect(await allowed(client)).toEqual([join(fx.root, "docs")]);
    expect(await readable(client, join(fx.root, "docs", "guide.md"))).toBe(true);
    expect(await readable(client, join(fx.root, "src", "index.ts"))).toBe(false);
  });

  it("applies the client's roots to resources too", async () => {
    const { client } = await connectStdio(["--root", fx.root], { protocolVersion, roots: [root("src")] });
    const inside = pathToFileURL(join(fx.root, "src", "index.ts")).href;
    const outside = pathToFileURL(join(fx.root, "README.md")).href;
    expect((await client.readResource(inside)).contents[0]).toMatchObject({ uri: inside, mimeType: "text/typescript" });
    await expect(client.readResource(outside)).rejects.toThrow(/outside the allowed directories/);
    const listed = (await client.resources()).map((r) => r.uri).filter((u) => u.startsWith("file:"));
    if (protocolVersion === "2025-11-25") expect(listed.sort()).toEqual([inside, `${inside.slice(0, -8)}lib/greet.ts`]);
    // 2026-07-28 lets only tools/call, prompts/get and resources/read ask the client for its
    // roots; resources/list cannot learn them, so it lists no file rather than too many.
    else expect(listed).toEqual([]);
  });

  it("grants nothing when the client's roots lie outside the server's", async () => {
    const { client } = await connectStdio(["--root", fx.root], {
      protocolVersion,
      roots: [{ uri: pathToFileURL(fx.outside).href, name: "outside" }],
    });
    const result = await call(client, "list_allowed_directories");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/No directory is accessible/);
    expect(await readable(client, join(fx.outside, "secret.txt"))).toBe(false);
    expect(await readable(client, join(fx.root, "README.md"))).toBe(false);
  });

  it("keeps the server's root when the client's root contains it, and ignores non-file roots", async () => {
    const { client } = await connectStdio(["--root", fx.root], {
      protocolVersion,
      roots: [
        { uri: pathToFileURL(fx.dir).href, name: "parent" },
        { uri: "https://example.com/repo", name: "web" },
      ],
    });
    expect(await allowed(client)).toEqual([fx.root]);
    expect(await readable(client, join(fx.outside, "secret.txt"))).toBe(false);
  });

  it("serves the server's roots to a client without the roots capability", async () => {
    const { client } = await connectStdio(["--root", fx.root], { protocolVersion });
    expect(await allowed(client)).toEqual([fx.root]);
    expect(await readable(client, "README.md")).toBe(true);
  });
});

describe("over Streamable HTTP", () => {
  it("keeps each client's roots to itself, both eras at once", async () => {
    const server = await startHttp(["--root", fx.root]);
    const [legacy, modern, plain] = await Promise.all([
      connectHttp(server.url, { protocolVersion: "2025-11-25", roots: [root("src")] }),
      connectHttp(server.url, { roots: [root("docs")] }),
      connectHttp(server.url, { protocolVersion: "2025-11-25" }),
    ]);
    expect(modern.client.protocolVersion).toBe("2026-07-28");
    for (let round = 0; round < 3; round++) {
      const [a, b, c] = await Promise.all([allowed(legacy.client), allowed(modern.client), allowed(plain.client)]);
      expect(a).toEqual([join(fx.root, "src")]);
      expect(b).toEqual([join(fx.root, "docs")]);
      expect(c).toEqual([fx.root]);
    }
    expect(await readable(legacy.client, join(fx.root, "docs", "guide.md"))).toBe(false);
    expect(await readable(modern.client, join(fx.root, "docs", "guide.md"))).toBe(true);
    expect(await readable(modern.client, join(fx.root, "src", "index.ts"))).toBe(false);

    legacy.client.setRoots([root("docs")]);
    await eventually(async () => (await allowed(legacy.client))[0] === join(fx.root, "docs"), "the new roots");
    expect(await allowed(plain.client)).toEqual([fx.root]);
  });
});
