import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Connected,
  call,
  closeAll,
  connectStdio,
  type Fixture,
  makeFixture,
  PNG,
  textOf,
  waitFor,
  within,
} from "./helpers.js";

// The file side of `mcpkit serve workspace --allow-write`, end to end over stdio: tools with
// their annotations, resources with MIME types and subscriptions fed by file watching.

let fx: Fixture;
let ws: Connected;
const uri = (...parts: string[]) => pathToFileURL(join(fx.root, ...parts)).href;

beforeAll(async () => {
  fx = makeFixture();
  mkdirSync(join(fx.root, "many"));
  for (let i = 0; i < 520; i++) writeFileSync(join(fx.root, "many", `f${String(i).padStart(3, "0")}.log`), "x\n");
  ws = await connectStdio(["--root", fx.root, "--allow-write"], { protocolVersion: "2025-11-25" });
}, 20_000);

afterAll(async () => {
  await closeAll();
  fx.cleanup();
});

describe("tools", () => {
  it("lists each tool with the annotations its effect calls for", async () => {
    const tools = Object.fromEntries((await ws.client.tools()).map((t) => [t.name, t.annotations]));
    for (const name of [
      "read_file",
      "read_multiple_files",
      "list_directory",
      "directory_tree",
      "search_files",
      "search_content",
      "get_file_info",
      "list_allowed_directories",
    ])
      expect(tools[name], name).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tools.write_file).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(tools.edit_file).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(tools.move_file).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.create_directory).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
  });

  it("reads text, images and binary files, each in its own kind of block", async () => {
    expect(textOf(await call(ws.client, "read_file", { path: "README.md" }))).toBe(
      "# Demo\n\nA workspace for tests.\n",
    );
    const image = await call(ws.client, "read_file", { path: "image.png" });
    expect(image.content[0]).toMatchObject({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    const binary = await call(ws.client, "read_file", { path: "data.bin" });
    expect(binary.content[0]).toMatchObject({
      type: "resource",
      resource: { uri: uri("data.bin"), mimeType: "application/octet-stream", blob: "AAECA//+AAc=" },
    });
    // A link that stays inside the root is followed.
    expect(textOf(await call(ws.client, "read_file", { path: "inner-link.ts" }))).toContain("greet");
  });

  it("reads several files, reporting a failure in place", async () => {
    const result = await call(ws.client, "read_multiple_files", {
      paths: ["docs/guide.md", "nope.txt", "src/index.ts"],
    });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toContain("docs/guide.md:\n# Guide");
    expect(text).toContain("nope.txt: Error: No such file or directory: nope.txt");
    expect(text).toContain('import { greet } from "./lib/greet.js"');
  });

  it("lists a directory and draws a tree, stepping over node_modules", async () => {
    const listing = textOf(await call(ws.client, "list_directory", { path: "src" }));
    expect(listing.split("\n").slice(1)).toEqual(["[FILE] index.ts", "[DIR] lib"]);
    const tree = textOf(await call(ws.client, "directory_tree", { maxDepth: 3 }));
    expect(tree).toContain("\n  src/\n    index.ts\n    lib/\n      greet.ts");
    expect(tree).toContain("  node_modules/ …");
    expect(tree).not.toContain("dep");
    expect(tree).toContain("  escape (link)");
  });

  it("finds files by glob and lines by content, bounded with a note", async () => {
    const ts = textOf(await call(ws.client, "search_files", { pattern: "*.ts" }));
    expect(ts.split("\n").slice(1)).toEqual(["inner-link.ts", "src/index.ts", "src/lib/greet.ts"]);
    const braces = textOf(await call(ws.client, "search_files", { pattern: "{README,docs/*}.md" }));
    expect(braces.split("\n").slice(1)).toEqual(["README.md", "docs/guide.md"]);
    const excluded = textOf(await call(ws.client, "search_files", { pattern: "**/*.ts", exclude: ["src/lib/**"] }));
    expect(excluded).not.toContain("greet.ts");

    const hello = textOf(await call(ws.client, "search_content", { query: "hello" }));
    expect(hello).toContain("docs/guide.md:3: Say Hello to everyone.");
    expect(hello).toContain('src/lib/greet.ts:2:   return "Hello, " + name + "!";');
    expect(hello).not.toContain("node_modules");
    const exact = textOf(await call(ws.client, "search_content", { query: "hello", caseSensitive: true }));
    expect(exact).toMatch(/^0 matching lines/);

    const many = textOf(await call(ws.client, "search_files", { pattern: "many/*.log" }));
    expect(many.split("\n")).toHaveLength(502);
    expect(many).toMatch(/\[truncated: more than 500 matches; use a narrower pattern\]$/);
    const invalid = await call(ws.client, "search_files", { pattern: "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}" });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/Invalid glob pattern.*more than 64 choices/);
  });

  it("describes a file", async () => {
    const info = (await call(ws.client, "get_file_info", { path: "inner-link.ts" })).structuredContent;
    expect(info).toMatchObject({
      path: join(fx.root, "inner-link.ts"),
      type: "file",
      mimeType: "text/typescript",
      symbolicLinkTo: join(fx.root, "src", "index.ts"),
    });
    const dir = (await call(ws.client, "get_file_info", { path: "src" })).structuredContent;
    expect(dir).toMatchObject({ type: "directory" });
  });

  it("previews an edit as a diff with dryRun, then applies it", async () => {
    const path = join(fx.root, "src", "lib", "greet.ts");
    const before = readFileSync(path, "utf8");
    const edits = [{ oldText: 'return "Hello, " + name + "!";', newText: 'return "Hi, " + name;' }];
    const preview = textOf(await call(ws.client, "edit_file", { path: "src/lib/greet.ts", edits, dryRun: true }));
    expect(preview).toMatch(/^Dry run: nothing was written/);
    expect(preview).toContain(
      '@@ -1,3 +1,3 @@\n export function greet(name: string): string {\n-  return "Hello, " + name + "!";\n+  return "Hi, " + name;\n }\n',
    );
    expect(readFileSync(path, "utf8")).toBe(before);

    const applied = textOf(await call(ws.client, "edit_file", { path: "src/lib/greet.ts", edits }));
    expect(applied).toMatch(/^Edited /);
    expect(readFileSync(path, "utf8")).toBe(before.replace('"Hello, " + name + "!"', '"Hi, " + name'));

    const again = await call(ws.client, "edit_file", { path: "src/lib/greet.ts", edits });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/oldText was not found/);
    const ambiguous = await call(ws.client, "edit_file", {
      path: "README.md",
      edits: [{ oldText: "e", newText: "E" }],
    });
    expect(textOf(ambiguous)).toMatch(/occurs \d+ times; include more surrounding lines/);
  });

  it("writes, creates directories and moves without overwriting", async () => {
    expect(textOf(await call(ws.client, "create_directory", { path: "out/nested" }))).toMatch(/^Created /);
    expect(textOf(await call(ws.client, "create_directory", { path: "out/nested" }))).toMatch(/already exists$/);
    expect(textOf(await call(ws.client, "write_file", { path: "out/nested/a.txt", content: "one\n" }))).toMatch(
      /^Created .*a\.txt \(4 bytes\)$/,
    );
    expect(textOf(await call(ws.client, "write_file", { path: "out/nested/a.txt", content: "two\n" }))).toMatch(
      /^Wrote /,
    );
    expect(readFileSync(join(fx.root, "out", "nested", "a.txt"), "utf8")).toBe("two\n");
    const orphan = await call(ws.client, "write_file", { path: "nowhere/a.txt", content: "x" });
    expect(textOf(orphan)).toMatch(/parent directory .* does not exist/);

    expect(
      textOf(await call(ws.client, "move_file", { source: "out/nested/a.txt", destination: "out/b.txt" })),
    ).toMatch(/^Moved /);
    expect(existsSync(join(fx.root, "out", "nested", "a.txt"))).toBe(false);
    expect(readFileSync(join(fx.root, "out", "b.txt"), "utf8")).toBe("two\n");
  });
});

describe("resources", () => {
  it("lists files with MIME types, without .git, node_modules or what links point to", async () => {
    const files = (await ws.client.resources()).filter((r) => r.uri.startsWith("file:"));
    const byName = Object.fromEntries(files.map((r) => [r.name, r]));
    expect(byName["README.md"]).toMatchObject({ uri: uri("README.md"), mimeType: "text/markdown" });
    expect(byName["image.png"]).toMatchObject({ mimeType: "image/png" });
    expect(byName["docs/guide.md"]).toMatchObject({ uri: uri("docs", "guide.md") });
    expect(files.some((r) => r.name.includes("node_modules") || r.name.startsWith("escape"))).toBe(false);
    // Breadth-first and bounded: the 520 files of many/ fill the list up to its 500 before src/lib.
    expect(files).toHaveLength(500);
    expect(byName["src/lib/greet.ts"]).toBeUndefined();
    const templates = await ws.client.resourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain("file:///{+path}");
  });

  it("reads text as text and binary as a base64 blob, and a directory as its listing", async () => {
    const text = await ws.client.readResource(uri("docs", "guide.md"));
    expect(text.contents).toEqual([
      { uri: uri("docs", "guide.md"), mimeType: "text/markdown", text: "# Guide\n\nSay Hello to everyone.\n" },
    ]);
    const png = await ws.client.readResource(uri("image.png"));
    expect(png.contents[0]).toMatchObject({ mimeType: "image/png", blob: PNG.toString("base64") });
    writeFileSync(join(fx.root, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
    const latin1 = await ws.client.readResource(uri("latin1.txt"));
    expect(latin1.contents[0]).toMatchObject({ mimeType: "text/plain", blob: "Y2Fm6Qo=" });
    const dir = await ws.client.readResource(uri("src"));
    expect(dir.contents[0]).toMatchObject({ mimeType: "inode/directory", text: "index.ts\nlib/" });
  });

  it("completes paths under the allowed directories", async () => {
    const typed = `${fx.root.slice(1)}/sr`;
    const { completion } = await ws.client.complete({
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: typed },
    });
    expect(completion.values).toEqual([`${fx.root.slice(1)}/src/`]);
    const outside = await ws.client.complete({
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: `${fx.root.slice(1)}/escape/` },
    });
    expect(outside.completion.values).toEqual([]);
  });

  it("notifies a subscriber when the file changes on disk, and the list when files come and go", async () => {
    const target = uri("docs", "guide.md");
    const updated: string[] = [];
    let listChanged = 0;
    ws.client.on("notifications/resources/updated", (params) => updated.push(params.uri as string));
    ws.client.on("notifications/resources/list_changed", () => listChanged++);
    await ws.client.subscribe(target);
    writeFileSync(join(fx.root, "docs", "guide.md"), "# Guide\n\nChanged.\n");
    await within(
      waitFor(() => updated.includes(target), "resources/updated"),
      5000,
      "the update",
    );
    const read = await ws.client.readResource(target);
    expect(read.contents[0]).toMatchObject({ text: "# Guide\n\nChanged.\n" });

    // Not subscribed: no update for it.
    writeFileSync(join(fx.root, "README.md"), "# Changed too\n");
    writeFileSync(join(fx.root, "docs", "new.md"), "new\n");
    await within(
      waitFor(() => listChanged > 0, "resources/list_changed"),
      5000,
      "the list change",
    );
    expect(updated).not.toContain(uri("README.md"));

    // Unsubscribed: no more updates. README.md, subscribed now and written after guide.md,
    // is told of in the same batch, after it: once its update is here, guide.md's would be.
    await ws.client.unsubscribe(target);
    const sentinel = uri("README.md");
    await ws.client.subscribe(sentinel);
    const seen = updated.length;
    writeFileSync(join(fx.root, "docs", "guide.md"), "# Guide\n\nAgain.\n");
    writeFileSync(join(fx.root, "README.md"), "# Changed again\n");
    await within(
      waitFor(() => updated.includes(sentinel), "resources/updated for README.md"),
      5000,
      "the sentinel's update",
    );
    expect(updated.slice(seen)).toEqual([sentinel]);
  });
});

describe("in the 2026-07-28 era", () => {
  it("delivers resource updates on a subscriptions/listen stream", async () => {
    const modern = await connectStdio(["--root", fx.root]);
    expect(modern.client.protocolVersion).toBe("2026-07-28");
    const target = uri("src", "index.ts");
    const updated: string[] = [];
    modern.client.on("notifications/resources/updated", (params) => updated.push(params.uri as string));
    await modern.client.subscribe(target);
    writeFileSync(join(fx.root, "src", "index.ts"), "console.log('changed');\n");
    await within(
      waitFor(() => updated.includes(target), "resources/updated"),
      5000,
      "the update",
    );
    expect(textOf(await call(modern.client, "read_file", { path: "src/index.ts" }))).toBe("console.log('changed');\n");
    await modern.close();
  });
});
