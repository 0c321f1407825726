import { describe, expect, it } from "vitest";
import { MemoryDriver } from "./memory-driver.js";
import { frameBudget, fuzz, TIMEOUT_MS } from "./runner.js";

describe("fuzz: in memory", () => {
  it(
    "keeps the connection through hostile values, answers every valid request among them, and leaks no stack, path or memory",
    async () => {
      const driver = new MemoryDriver();
      try {
        const figures = await fuzz(driver, frameBudget("memory"));
        expect(figures.answered).toBe(figures.valid);
        expect(figures.frames).toBeGreaterThanOrEqual(frameBudget("memory"));
        expect(figures.memoryAfterMiB as number).toBeLessThan((figures.memoryBeforeMiB as number) + 32);
      } finally {
        await driver.close();
      }
    },
    TIMEOUT_MS,
  );
});
