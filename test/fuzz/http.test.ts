import { describe, expect, it } from "vitest";
import { HttpDriver } from "./http-driver.js";
import { frameBudget, fuzz, TIMEOUT_MS } from "./runner.js";

describe("fuzz: Streamable HTTP (a real server on 127.0.0.1)", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(
      `${era === "legacy" ? "2025-11-25, in a session" : "2026-07-28"}: no 5xx, every valid request answered, no stack, path or memory leaked`,
      async () => {
        const driver = new HttpDriver(era);
        try {
          const figures = await fuzz(driver, frameBudget("http"));
          expect(figures.answered).toBe(figures.valid);
          expect(figures.frames).toBeGreaterThanOrEqual(frameBudget("http"));
          expect(figures.memoryAfterMiB as number).toBeLessThan((figures.memoryBeforeMiB as number) + 32);
        } finally {
          await driver.close();
        }
      },
      TIMEOUT_MS,
    );
  }
});
