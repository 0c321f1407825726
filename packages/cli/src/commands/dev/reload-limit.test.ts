import { describe, expect, it } from "vitest";
import { reloadLimit } from "./reload-limit.js";

// mcpkit dev stops reloading after more than 20 reloads in 10 seconds.

describe("reloadLimit", () => {
  it("allows 20 reloads in 10 s and refuses the 21st", () => {
    let now = 0;
    const limit = reloadLimit(undefined, () => now);
    for (let i = 0; i < 20; i++) {
      now += 400; // 20 saves, 0.4 s apart: 8 s
      expect(limit.record(), `reload ${i + 1}`).toBe(true);
    }
    now += 400;
    expect(limit.record()).toBe(false);
  });

  it("counts only the last 10 s: a person saving every second never reaches it", () => {
    let now = 0;
    const limit = reloadLimit(undefined, () => now);
    for (let i = 0; i < 200; i++) {
      now += 1000;
      expect(limit.record()).toBe(true);
    }
  });

  it("forgets a burst once 10 s have passed", () => {
    let now = 0;
    const limit = reloadLimit({ max: 3, windowMs: 10_000 }, () => now);
    for (let i = 0; i < 3; i++) expect(limit.record()).toBe(true);
    now += 10_000;
    expect(limit.record()).toBe(true);
  });
});
