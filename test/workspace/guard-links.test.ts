import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceError } from "../../packages/servers/src/workspace/errors.js";
import { guardPath, refuseGitInternals } from "../../packages/servers/src/workspace/files/guard.js";
import { type Area, areaOf, configuredAreas, withoutNested } from "../../packages/servers/src/workspace/roots/area.js";
import { type Fixture, makeFixture } from "./helpers.js";

// The path sandbox (guardPath) where links and several roots meet: a path that comes back
// inside through a link out, a root named through a link, .git reached through a link, a
// second root. Each test fails when the check it names is taken out (docs/mutation-testing.md).

let fx: Fixture;
let areas: Area[];
let second: string;
beforeAll(async () => {
  fx = makeFixture();
  mkdirSync(join(fx.root, ".git"));
  writeFileSync(join(fx.root, ".git", "config"), "[core]\n");
  // Out and back: root/out leads outside, outside/back leads into the root again.
  symlinkSync("../outside", join(fx.root, "out"));
  symlinkSync("../root/README.md", join(fx.outside, "back"));
  symlinkSync(".git", join(fx.root, "gitdir"));
  symlinkSync("root", join(fx.dir, "root-link"));
  second = join(fx.dir, "second");
  mkdirSync(second);
  writeFileSync(join(second, "notes.txt"), "second root\n");
  areas = await configuredAreas([fx.root, second]);
});
afterAll(() => fx.cleanup());

describe("guardPath with links", () => {
  it("refuses an entry whose directory lies outside, even when its target is back inside", async () => {
    // A rename acts on the entry itself (outside/back), not on what it points to.
    await expect(guardPath(areas, "out/back")).rejects.toThrow(
      new WorkspaceError("Access denied: out/back is outside the allowed directories"),
    );
  });

  it("finds .git reached through a link, and .git named with either slash", async () => {
    const viaLink = await guardPath(areas, "gitdir/config", { mayCreate: true });
    expect(viaLink.real).toBe(join(fx.root, ".git", "config"));
    expect(() => refuseGitInternals(viaLink)).toThrow(
      new WorkspaceError("Refused: gitdir/config is inside a .git directory, which is never written"),
    );
    const backslash = await guardPath(areas, "sub\\.git\\hooks", { mayCreate: true });
    expect(() => refuseGitInternals(backslash)).toThrow(/inside a \.git directory/);
    const plain = await guardPath(areas, "src/index.ts");
    expect(() => refuseGitInternals(plain)).not.toThrow();
  });

  it("accepts a root's files by the name the root was given and by its real path", async () => {
    const linked = await configuredAreas([join(fx.dir, "root-link")]);
    expect(linked).toEqual([{ path: join(fx.dir, "root-link"), real: fx.root }]);
    for (const path of [join(fx.dir, "root-link", "README.md"), join(fx.root, "README.md")]) {
      expect(await guardPath(linked, path)).toMatchObject({ real: join(fx.root, "README.md"), exists: true });
    }
  });

  it("resolves relative paths in the first root and accepts absolute ones in any root", async () => {
    await expect(guardPath(areas, "notes.txt")).rejects.toThrow(/No such file or directory: notes\.txt/);
    const inSecond = await guardPath(areas, join(second, "notes.txt"));
    expect(inSecond).toMatchObject({ real: join(second, "notes.txt"), area: { path: second } });
    const viaUri = await guardPath(areas, pathToFileURL(join(fx.root, "docs", "guide.md")).href);
    expect(viaUri).toMatchObject({
      real: join(fx.root, "docs", "guide.md"),
      absolute: join(fx.root, "docs", "guide.md"),
    });
  });

  it("names the entry itself for a link (what a move acts on) and the root for the root", async () => {
    expect(await guardPath(areas, "inner-link.ts")).toMatchObject({
      entry: join(fx.root, "inner-link.ts"),
      real: join(fx.root, "src", "index.ts"),
    });
    expect(await guardPath(areas, ".")).toMatchObject({ real: fx.root, entry: fx.root, exists: true });
  });

  it("refuses what is not a path, and reports a path that cannot be resolved", async () => {
    for (const input of [undefined, 7, null, ""]) {
      await expect(guardPath(areas, input)).rejects.toThrow(new WorkspaceError("A path is required"));
    }
    await expect(guardPath(areas, "README.md/inside-a-file")).rejects.toThrow(
      new WorkspaceError("A component of the path is not a directory: README.md/inside-a-file"),
    );
    await expect(guardPath(areas, "README.md/x/y", { mayCreate: true })).rejects.toThrow(/README\.md\/x\/y/);
    await expect(guardPath(areas, "missing/file.txt")).rejects.toThrow(
      new WorkspaceError("No such file or directory: missing/file.txt"),
    );
  });
});

describe("guardPath as written", () => {
  it("refuses a path that climbs out before looking at any link, listing the allowed directories", async () => {
    const list = `${fx.root}, ${second}`;
    for (const input of ["../outside/secret.txt", join(fx.outside, "secret.txt"), "/"]) {
      await expect(guardPath(areas, input)).rejects.toThrow(
        new WorkspaceError(`Access denied: ${input} is outside the allowed directories (${list})`),
      );
    }
  });
});

describe("roots that overlap", () => {
  it("fold a nested or repeated root into the one that holds it, whatever their order", () => {
    const a: Area = { path: "/w", real: "/w" };
    const b: Area = { path: "/w/src", real: "/w/src" };
    const c: Area = { path: "/other", real: "/other" };
    expect(withoutNested([a, b, c])).toEqual([a, c]);
    expect(withoutNested([b, a])).toEqual([a]);
    const alias: Area = { path: "/alias", real: "/w" };
    expect(withoutNested([a, alias])).toEqual([a]);
    expect(withoutNested([alias, a])).toEqual([alias]);
    expect(areaOf([c, a], "/w/src/x")).toBe(a);
    expect(areaOf([c, a], "/wx")).toBeUndefined();
  });
});
