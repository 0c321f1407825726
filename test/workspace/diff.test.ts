import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unifiedDiff } from "../../packages/servers/src/workspace/files/diff.js";

// edit_file's preview: unifiedDiff must print what `diff -u` prints for plain cases, and
// for random ones produce a patch that `patch` applies to give the new text, as short as
// GNU diff's (both are minimal).

const dir = mkdtempSync(join(tmpdir(), "mcpkit-ws-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gnuDiff(before: string, after: string): string {
  writeFileSync(join(dir, "a"), before);
  writeFileSync(join(dir, "b"), after);
  const run = spawnSync("diff", ["-u", "--label", "a/f", "--label", "b/f", join(dir, "a"), join(dir, "b")], {
    encoding: "utf8",
  });
  return run.stdout;
}

function applyPatch(before: string, patch: string): string {
  writeFileSync(join(dir, "p-in"), before);
  const run = spawnSync("patch", ["-s", "-o", join(dir, "p-out"), join(dir, "p-in")], {
    input: patch,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`patch failed: ${run.stdout}${run.stderr}\n${patch}`);
  return readFileSync(join(dir, "p-out"), "utf8");
}

const changed = (diff: string) => diff.split("\n").filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;

describe("unifiedDiff", () => {
  it.each([
    ["one changed line", "a\nb\nc\n", "a\nB\nc\n"],
    ["a line added at the start", "a\nb\n", "new\na\nb\n"],
    ["a line removed at the end", "a\nb\nc\n", "a\nb\n"],
    ["an empty file filled", "", "a\nb\n"],
    ["a file emptied", "a\nb\n", ""],
    ["the final newline removed", "a\nb\n", "a\nb"],
    ["the final newline added", "a\nb", "a\nb\n"],
    ["a change far from another", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n"],
    ["two changes close together", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\nX\n3\n4\n5\nY\n7\n8\n"],
  ])("prints what diff -u prints for %s", (_what, before, after) => {
    expect(unifiedDiff(before, after, "f")).toBe(gnuDiff(before, after));
  });

  it("is empty for equal texts", () => {
    expect(unifiedDiff("same\n", "same\n", "f")).toBe("");
  });

  it("makes minimal patches that apply, for random edits", () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      // Few distinct lines, so many alignments tie and the algorithm has choices to make.
      const before = Array.from({ length: 30 + random(40) }, () => `line ${random(6)}`);
      const after = [...before];
      for (let edits = 1 + random(8); edits > 0; edits--) {
        const at = random(after.length + 1);
        const op = random(3);
        if (op === 0) after.splice(at, 1);
        else if (op === 1) after.splice(at, 0, `new ${random(100)}`);
        else after[at] = `changed ${random(100)}`;
      }
      const a = `${before.join("\n")}\n`;
      const b = after.join("\n") + (random(4) === 0 ? "" : "\n");
      const mine = unifiedDiff(a, b, "f");
      expect(applyPatch(a, mine)).toBe(b);
      expect(changed(mine)).toBe(changed(gnuDiff(a, b)));
    }
  });

  it("still applies when the texts differ everywhere (past the edit-distance bound)", () => {
    const a = `${Array.from({ length: 1500 }, (_, i) => `old ${i}`).join("\n")}\n`;
    const b = `${Array.from({ length: 1500 }, (_, i) => `new ${i}`).join("\n")}\n`;
    const diff = unifiedDiff(a, b, "f");
    expect(diff.startsWith("--- a/f\n+++ b/f\n@@ -1,1500 +1,1500 @@\n")).toBe(true);
    expect(applyPatch(a, diff)).toBe(b);
  });
});
