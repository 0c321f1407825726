import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { changedReports, changeMessage, entryPoints, reports } from "../../scripts/api-report.mjs";

// The public API of each entry point (API Extractor's report of its built declarations) is
// checked in under api/: a change to it is a change a reviewer sees, made on purpose.

const API = fileURLToPath(new URL("../../api/", import.meta.url));
const made = reports();
const scratch = mkdtempSync(join(tmpdir(), "mcpkit-api-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the API reports in api/", () => {
  it("cover every entry point of mcpkit, @mcpkit/servers and @mcpkit/redis", () => {
    const subpaths = (pkg: string) =>
      Object.keys(
        JSON.parse(readFileSync(new URL(`../../packages/${pkg}/package.json`, import.meta.url), "utf8")).exports,
      ).filter((s) => s !== "./package.json");
    const specifiers = entryPoints().map((e) => e.specifier);
    expect(specifiers).toEqual([
      ...subpaths("mcpkit").map((s) => (s === "." ? "mcpkit" : `mcpkit/${s.slice(2)}`)),
      ...subpaths("servers").map((s) => `@mcpkit/servers/${s.slice(2)}`),
      "@mcpkit/redis",
    ]);
  });

  it("are listed, each entry point, in the README", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const { specifier } of entryPoints())
      if (specifier.startsWith("mcpkit")) expect(readme, specifier).toContain(`| \`${specifier}\` |`);
  });

  it("match the built declarations (else: run `npm run api`)", () => {
    const changed = changedReports(made);
    if (changed.length > 0) expect.fail(changeMessage(changed));
  });

  it("catch a change to the surface, and say to run npm run api", () => {
    cpSync(API, scratch, { recursive: true });
    const file = join(scratch, "mcpkit-server.api.md");
    // As if McpServer had lost a method since the report was written.
    writeFileSync(file, readFileSync(file, "utf8").replace(/^ {4}resourceUpdated\(.*\n/m, ""));
    const changed = changedReports(made, scratch);
    expect(changed.map((r) => r.specifier)).toEqual(["mcpkit/server"]);
    expect(changeMessage(changed)).toMatch(/api\/mcpkit-server\.api\.md \(mcpkit\/server\)[\s\S]*Run `npm run api`/);
  });

  it("keep no internals of McpServer: what the library itself uses stays out of its surface", () => {
    const server = made.find((r) => r.specifier === "mcpkit/server")?.text ?? "";
    const mcpServer = /export class McpServer \{[\s\S]*?\n\}/.exec(server)?.[0] ?? "";
    const members = [...mcpServer.matchAll(/^ {4}(?:readonly |get )?(\w+)/gm)].map((m) => m[1]);
    expect(members).toContain("tool");
    for (const internal of [
      "attachSession",
      "detachSession",
      "onClose",
      "middleware",
      "tools",
      "taskSettings",
      "events",
    ])
      expect(members).not.toContain(internal);
  });
});
