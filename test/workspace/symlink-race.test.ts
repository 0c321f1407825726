import { describe, expect, it } from "vitest";
import { runSymlinkRace } from "./symlink-race.js";

// Issue #17, defect 1: a directory flipped between a real one and a link out of the root
// while it is read. `npm run race` runs the same for 30 s with 4 readers.
const seconds = Number(process.env.MCPKIT_RACE_SECONDS ?? 3);
const readers = Number(process.env.MCPKIT_RACE_READERS ?? 4);

describe("the sandbox under a symlink-swap race", () => {
  it(`never returns the outside file (${seconds} s, ${readers} readers)`, {
    timeout: seconds * 1000 + 30_000,
  }, async () => {
    const figures = await runSymlinkRace({ seconds, readers });
    console.log(`symlink race: ${JSON.stringify(figures)}`);
    expect(figures.flips).toBeGreaterThan(100);
    expect(figures.insideReads).toBeGreaterThan(0);
    expect(figures.outsideReads).toBe(0);
  });
});
