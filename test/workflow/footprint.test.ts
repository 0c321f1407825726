import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_PACKAGES } from "../../scripts/test-packages.mjs";
import { REPO_ROOT } from "./helpers.js";

// What `npm install` in a clone fetches: nothing only the tests run, and nothing that
// declares it needs a newer Node.js than the one installing (npm's EBADENGINE warning).

interface Lock {
  packages: Record<string, { version?: string; engines?: unknown; optional?: boolean }>;
}
const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as Lock;
const semver = createRequire(import.meta.url)("semver") as { satisfies(version: string, range: string): boolean };

describe("npm install in a clone", () => {
  it("fetches none of the big packages only the tests use: the test script installs them on first use", () => {
    expect(Object.keys(TEST_PACKAGES)).toEqual([
      "bun",
      "deno",
      "workerd",
      "@octokit/openapi",
      "@modelcontextprotocol/inspector",
      "fastmcp",
    ]);
    const locked = Object.keys(lock.packages).filter((path) =>
      /node_modules\/(bun|deno|workerd|@oven\/bun-[^/]+|@deno\/[^/]+|@cloudflare\/workerd-[^/]+|@octokit\/openapi|@modelcontextprotocol\/inspector|fastmcp)$/.test(
        path,
      ),
    );
    expect(locked).toEqual([]);
  });

  it("installs only packages that declare the running Node.js supported (no EBADENGINE)", () => {
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range =
        entry.engines && typeof entry.engines === "object" ? (entry.engines as { node?: unknown }).node : undefined;
      return path && typeof range === "string" && !semver.satisfies(process.versions.node, range)
        ? [`${path}@${entry.version} wants node ${range}`]
        : [];
    });
    expect(refusing).toEqual([]);
  });
});
