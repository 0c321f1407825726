import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardPath, refuseGitInternals } from "../../packages/servers/src/workspace/files/guard.js";
import { type Area, configuredAreas } from "../../packages/servers/src/workspace/roots/area.js";
import { intersect } from "../../packages/servers/src/workspace/roots/client-roots.js";
import { isInside } from "../../packages/servers/src/workspace/roots/inside.js";
import { type Fixture, makeFixture } from "./helpers.js";

// The path sandbox in-process: every path argument and decoded file:// URI goes through
// guardPath, so its decisions are checked here case by case.

let fx: Fixture;
let areas: Area[];
beforeAll(async () => {
  fx = makeFixture();
  areas = await configuredAreas([fx.root]);
});
afterAll(() => fx.cleanup());

describe("isInside", () => {
  it.each([
    ["/a/b", "/a/b", true],
    ["/a/b", "/a/b/c", true],
    ["/a/b", "/a/bc", false],
    ["/a/b", "/a", false],
    ["/a/b", "/a/b/..foo", true],
    ["/", "/anything", true],
  ])("%s contains %s: %s", (dir, path, expected) => expect(isInside(dir, path)).toBe(expected));
});

describe("guardPath", () => {
  it("resolves relative paths from the first area and returns the real path", async () => {
    const guarded = await guardPath(areas, "src/../src/index.ts");
    expect(guarded).toMatchObject({ real: join(fx.root, "src", "index.ts"), exists: true });
    expect((await guardPath(areas, "inner-link.ts")).real).toBe(join(fx.root, "src", "index.ts"));
    expect((await guardPath(areas, "inner-link.ts")).entry).toBe(join(fx.root, "inner-link.ts"));
  });

  it.each([
    ["..", /outside the allowed directories/],
    ["../outside/secret.txt", /outside the allowed directories/],
    ["/etc/passwd", /outside the allowed directories/],
    ["escape/secret.txt", /through a symbolic link/],
    ["secret-link", /through a symbolic link/],
    ["a\0b", /NUL byte/],
    ["", /A path is required/],
    ["file://host/etc/passwd", /not a local file URI/],
    ["missing.txt", /No such file or directory: missing\.txt/],
  ])("refuses %j", async (input, message) => {
    await expect(guardPath(areas, input)).rejects.toThrow(message);
  });

  it("checks a path to be created through its nearest existing parent", async () => {
    expect(await guardPath(areas, "new/dir/file.txt", { mayCreate: true })).toMatchObject({
      real: join(fx.root, "new", "dir", "file.txt"),
      exists: false,
    });
    await expect(guardPath(areas, "escape/new/file.txt", { mayCreate: true })).rejects.toThrow(/symbolic link/);
  });

  it("refuses everything when no area is left", async () => {
    await expect(guardPath([], "README.md")).rejects.toThrow(/No directory is accessible/);
  });

  it("keeps writes out of .git directories", async () => {
    const target = await guardPath(areas, ".git/config", { mayCreate: true });
    expect(() => refuseGitInternals(target)).toThrow(/inside a \.git directory/);
    expect(() =>
      refuseGitInternals({ ...target, shown: ".github/x", real: join(fx.root, ".github", "x") }),
    ).not.toThrow();
  });
});

describe("intersect (client roots)", () => {
  const area = (path: string): Area => ({ path, real: path });
  it("keeps the deeper of each overlapping pair and drops the rest", () => {
    expect(intersect([area("/w")], [area("/w/src"), area("/other")])).toEqual([area("/w/src")]);
    // A client root above the server's root grants the server's root: the union covers it.
    expect(intersect([area("/w")], [area("/w/src"), area("/")])).toEqual([area("/w")]);
    expect(intersect([area("/w/a"), area("/w/b")], [area("/w")])).toEqual([area("/w/a"), area("/w/b")]);
    expect(intersect([area("/w")], [])).toEqual([]);
  });
});
