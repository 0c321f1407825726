import { beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { frameBudget, fuzz, TIMEOUT_MS } from "./runner.js";
import { StdioDriver } from "./stdio-driver.js";

beforeAll(requireBuild);

describe("fuzz: stdio (a real child process)", () => {
  it(
    "lives through hostile frames, answers every valid request among them, and leaks no stack, path or memory",
    async () => {
      const driver = new StdioDriver();
      try {
        const figures = await fuzz(driver, frameBudget("stdio"));
        expect(figures.answered).toBe(figures.valid);
        expect(figures.frames).toBeGreaterThanOrEqual(frameBudget("stdio"));
        expect(figures.memoryAfterMiB as number).toBeLessThan((figures.memoryBeforeMiB as number) + 24);
      } finally {
        await driver.close();
      }
    },
    TIMEOUT_MS,
  );
});
