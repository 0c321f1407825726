import {
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Confinement,
  confinement,
  descriptorRelative,
  portableConfinement,
} from "../../packages/servers/src/workspace/files/confined.js";
import type { Area } from "../../packages/servers/src/workspace/roots/area.js";
import { type Fixture, makeFixture, snapshot } from "./helpers.js";

// The second lock of the file sandbox (confined.ts): whatever path it is handed, it acts
// only on what it opened and verified inside the areas. These calls bypass guardPath on
// purpose, as a path swapped after the check would: each must be refused on its own.

let fx: Fixture;
let areas: Area[];
let before: Record<string, string>;

beforeAll(() => {
  fx = makeFixture();
  mkdirSync(join(fx.root, ".git", "hooks"), { recursive: true });
  writeFileSync(join(fx.root, ".git", "config"), "[core]\n");
  areas = [{ path: fx.root, real: realpathSync(fx.root) }];
  before = snapshot(fx.dir);
});
afterAll(() => fx.cleanup());

describe.each([
  [descriptorRelative ? "descriptor-relative (this system's)" : "this system's", confinement],
  ["portable (without /proc/self/fd)", portableConfinement],
] as [string, Confinement][])("the descriptor-verified file operations, %s", (_way, c) => {
  const { makeDirectoryInside, openInside, readDirectoryInside, renameInside, statInside } = c;

  it("reads a file inside and says where it really is", async () => {
    const opened = await openInside(areas, join(fx.root, "README.md"), constants.O_RDONLY, "README.md");
    try {
      expect(opened.real).toBe(join(fx.root, "README.md"));
      expect((await opened.handle.readFile()).toString()).toMatch(/# Demo/);
    } finally {
      await opened.handle.close();
    }
  });

  it("refuses a file whose directory lies outside, even when handed its path directly", async () => {
    await expect(openInside(areas, join(fx.outside, "secret.txt"), constants.O_RDONLY, "secret.txt")).rejects.toThrow(
      /led outside the allowed directories/,
    );
  });

  it("refuses a path through a link out of the root", async () => {
    await expect(
      openInside(areas, join(fx.root, "escape", "secret.txt"), constants.O_RDONLY, "escape/secret.txt"),
    ).rejects.toThrow(/escape\/secret.txt is \(or became\) a symbolic link/);
  });

  it("never opens a link as the last component", async () => {
    await expect(openInside(areas, join(fx.root, "secret-link"), constants.O_RDONLY, "secret-link")).rejects.toThrow(
      /symbolic link/,
    );
  });

  it("lists a directory outside only to refuse it", async () => {
    await expect(readDirectoryInside(areas, join(fx.root, "escape"), "escape")).rejects.toThrow(/symbolic link/);
    await expect(readDirectoryInside(areas, fx.outside, "outside")).rejects.toThrow(/led outside/);
    const names = (await readDirectoryInside(areas, join(fx.root, "src"), "src")).map((d) => d.name);
    expect(names.sort()).toEqual(["index.ts", "lib"]);
  });

  it("creates no file through a link out of the root and truncates nothing outside", async () => {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC;
    await expect(
      openInside(areas, join(fx.root, "escape", "secret.txt"), flags, "escape/secret.txt", { mode: 0o666 }),
    ).rejects.toThrow(/symbolic link/);
    await expect(openInside(areas, join(fx.outside, "new.txt"), flags, "new.txt", { mode: 0o666 })).rejects.toThrow(
      /led outside/,
    );
    expect(readFileSync(join(fx.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
    expect(existsSync(join(fx.outside, "new.txt"))).toBe(false);
  });

  it("never creates or opens for writing anything in .git, however it is reached", async () => {
    symlinkSync(".git/hooks", join(fx.root, "hooks-link"));
    try {
      const flags = constants.O_WRONLY | constants.O_CREAT;
      for (const path of [
        join(fx.root, ".git", "config"),
        join(realpathSync(join(fx.root, "hooks-link")), "pre-commit"),
      ])
        await expect(openInside(areas, path, flags, "x", { mode: 0o666 })).rejects.toThrow(/leads into a \.git/);
      await expect(makeDirectoryInside(areas, join(fx.root, ".git", "hooks", "new"), "x")).rejects.toThrow(/\.git/);
      await expect(
        renameInside(areas, join(fx.root, "README.md"), join(fx.root, ".git", "R"), { from: "a", to: "b" }),
      ).rejects.toThrow(/\.git/);
    } finally {
      // The link goes again, so the snapshot below compares like with like.
      unlinkSync(join(fx.root, "hooks-link"));
    }
    expect(existsSync(join(fx.root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(fx.root, ".git", "hooks", "new"))).toBe(false);
  });

  it("moves nothing whose directory lies outside, and nothing to outside", async () => {
    await expect(
      renameInside(areas, join(fx.outside, "secret.txt"), join(fx.root, "stolen.txt"), { from: "a", to: "b" }),
    ).rejects.toThrow(/led outside/);
    await expect(
      renameInside(areas, join(fx.root, "README.md"), join(fx.root, "escape", "README.md"), { from: "a", to: "b" }),
    ).rejects.toThrow(/symbolic link/);
  });

  it("looks at metadata only inside: a FIFO without blocking, the root itself, nothing outside", async () => {
    expect((await statInside(areas, join(fx.root, "fifo"), "fifo")).isFIFO()).toBe(true);
    expect((await statInside(areas, fx.root, ".")).isDirectory()).toBe(true);
    expect((await statInside(areas, join(fx.root, "big.bin"), "big.bin")).size).toBe(1024 ** 3);
    await expect(statInside(areas, join(fx.outside, "secret.txt"), "secret.txt")).rejects.toThrow(/led outside/);
    await expect(statInside(areas, join(fx.root, "escape", "secret.txt"), "x")).rejects.toThrow(
      /symbolic link|led outside/,
    );
  });

  it("makes directories only inside, one verified level at a time", async () => {
    await expect(makeDirectoryInside(areas, join(fx.root, "escape", "a", "b"), "escape/a/b")).rejects.toThrow(
      /symbolic link/,
    );
    expect(existsSync(join(fx.outside, "a"))).toBe(false);
    expect(snapshot(fx.dir)).toEqual(before);
    await makeDirectoryInside(areas, join(fx.root, "made", "deep"), "made/deep");
    expect(existsSync(join(fx.root, "made", "deep"))).toBe(true);
    rmSync(join(fx.root, "made"), { recursive: true });
  });
});
