import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANGE_KINDS, EXPECT_KEYS } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../packages/cli/src/program.js";

import { REPO_ROOT } from "../cli-call/helpers.js";

// docs/testing.md moves with the code: its table of diff kinds is CHANGE_KINDS, and it
// documents every expectation key and every option of the five commands.

const doc = readFileSync(join(REPO_ROOT, "docs/testing.md"), "utf8");

describe("docs/testing.md", () => {
  it("lists every kind diff reports, as breaking or not as diff does, and no other", () => {
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` \| (yes|no) \|/gm)].map((m) => [m[1], m[2] === "yes"]);
    expect(rows).toEqual(Object.entries(CHANGE_KINDS).map(([kind, { breaking }]) => [kind, breaking]));
  });

  it("documents every expectation a test file may hold", () => {
    for (const key of EXPECT_KEYS) expect(doc, key).toContain(`| \`${key}\` |`);
  });

  it.each(["test", "record", "replay", "snapshot", "diff"] as const)(
    "documents every option of mcpkit %s",
    async (name) => {
      const command = await COMMANDS[name]();
      for (const option of command.options)
        expect(doc, `${name} ${option.long}`).toMatch(new RegExp(`\`[^\`]*${option.long}\\b`));
    },
  );
});
