import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { typedCommand } from "./typed-command.js";

// The command a terminal hint shows ("try it: … call URL tools"): what the person would type.

const dir = mkdtempSync(join(tmpdir(), "mcpkit-typed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** An installed mcpkit script at `path` under dir. */
function installed(path: string): string {
  const file = join(dir, path);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, "#!/usr/bin/env node\n");
  return file;
}
/** A PATH folder holding `mcpkit`, a link to `target`. */
function binFolder(name: string, target: string): string {
  const bin = join(dir, name);
  mkdirSync(bin);
  symlinkSync(target, join(bin, "mcpkit"));
  return bin;
}

describe("mcpkit as a person types it", () => {
  const global = installed("prefix/lib/node_modules/@mcpkit/cli/bin/mcpkit.js");
  const local = installed("project/node_modules/@mcpkit/cli/bin/mcpkit.js");
  const other = installed("elsewhere/mcpkit.js");

  it("mcpkit, when the first mcpkit on PATH is this one (a global install)", () => {
    const bin = binFolder("global-bin", global);
    expect(typedCommand({ PATH: `${join(dir, "empty")}:${bin}` }, global)).toEqual(["mcpkit"]);
  });

  it("this Node and script when the first mcpkit on PATH is another, or there is none", () => {
    const bin = binFolder("other-bin", other);
    expect(typedCommand({ PATH: bin }, global)).toEqual([process.execPath, global]);
    expect(typedCommand({ PATH: join(dir, "empty") }, global)).toEqual([process.execPath, global]);
  });

  it("npx mcpkit when an npm script runs the project's own (its .bin is on PATH in the script only)", () => {
    const bin = binFolder("project-bin", local);
    const env = { PATH: bin, npm_lifecycle_event: "dev", npm_config_local_prefix: join(dir, "project") };
    expect(typedCommand(env, local)).toEqual(["npx", "mcpkit"]);
    // Not from an npm script: the project's .bin is not on the person's PATH.
    expect(typedCommand({ PATH: join(dir, "empty") }, local)).toEqual([process.execPath, local]);
  });
});
