import { constants, mkdirSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeDirectoryInside,
  openDirectory,
  openInside,
  readDirectoryInside,
  renameInside,
} from "../../packages/servers/src/workspace/files/confined.js";
import type { Area } from "../../packages/servers/src/workspace/roots/area.js";
import { type Fixture, makeFixture } from "./helpers.js";

// The descriptor-verified operations (confined.ts) at their edges: what they say about a
// path that is not a directory, that reading .git is allowed (only writing is not), that
// every descriptor they open is closed again, and that they make exactly the directories
// asked for. Each test fails when the line it names is taken out (docs/mutation-testing.md).

let fx: Fixture;
let areas: Area[];
beforeAll(() => {
  fx = makeFixture();
  mkdirSync(join(fx.root, ".git"));
  areas = [{ path: fx.root, real: realpathSync(fx.root) }];
});
afterAll(() => fx.cleanup());

/** This process's open descriptors (Linux). */
const openDescriptors = () => readdirSync("/proc/self/fd").length;

describe("confined operations", () => {
  it("reports a file where a directory is needed as such, not as a link", async () => {
    for (const path of [join(fx.root, "README.md"), join(fx.root, "README.md", "below")]) {
      const error = (await openDirectory(areas, path, "x").catch((e: unknown) => e)) as NodeJS.ErrnoException;
      expect(error.code).toBe("ENOTDIR");
      expect(error.message).not.toMatch(/symbolic link/);
    }
  });

  it("opens a file in .git for reading: only writes there are refused", async () => {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(fx.root, ".git", "HEAD"), "ref: refs/heads/main\n");
    const opened = await openInside(areas, join(fx.root, ".git", "HEAD"), constants.O_RDONLY, ".git/HEAD");
    try {
      expect((await opened.handle.readFile()).toString()).toBe("ref: refs/heads/main\n");
    } finally {
      await opened.handle.close();
    }
  });

  it.runIf(process.platform === "linux")("closes every descriptor it opened, on success and on refusal", async () => {
    const before = openDescriptors();
    for (let i = 0; i < 10; i++) {
      const opened = await openInside(areas, join(fx.root, "README.md"), constants.O_RDONLY, "README.md");
      await opened.handle.close();
      await readDirectoryInside(areas, join(fx.root, "src"), "src");
      await renameInside(areas, join(fx.root, "docs", "guide.md"), join(fx.root, "docs", "g.md"), {
        from: "a",
        to: "b",
      });
      await renameInside(areas, join(fx.root, "docs", "g.md"), join(fx.root, "docs", "guide.md"), {
        from: "b",
        to: "a",
      });
      await makeDirectoryInside(areas, join(fx.root, "made", String(i), "deep"), "made");
      await openInside(areas, join(fx.outside, "secret.txt"), constants.O_RDONLY, "s").catch(() => undefined);
    }
    // Ten rounds of six operations: a leak would show as ten or more descriptors.
    expect(openDescriptors() - before).toBeLessThan(5);
  });

  it("makes exactly the missing directories, nothing beside them", async () => {
    await makeDirectoryInside(areas, join(fx.root, "exact", "a", "b"), "exact/a/b");
    expect(readdirSync(join(fx.root, "exact"))).toEqual(["a"]);
    expect(readdirSync(join(fx.root, "exact", "a"))).toEqual(["b"]);
    expect(readdirSync(join(fx.root, "exact", "a", "b"))).toEqual([]);
    // Again: everything exists, nothing is made or refused.
    await makeDirectoryInside(areas, join(fx.root, "exact", "a", "b"), "exact/a/b");
    expect(readdirSync(join(fx.root, "exact"))).toEqual(["a"]);
  });
});
