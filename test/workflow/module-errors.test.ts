// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the modules under test are source text holding template literals
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { mcpkit, REPO_ROOT, scratch } from "./helpers.js";

// A module that throws as it loads is reported with the file and line the throw came from
// (the TypeScript's line, source-mapped), never a bare message such as
// `mcpkit: "undefined" is not valid JSON`.

let space: ReturnType<typeof scratch>;
let project = "";
beforeAll(() => {
  requireBuild();
  space = scratch("module-errors");
  project = join(space.dir, "project");
  mkdirSync(join(project, "src"), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"));
});
afterAll(() => space.remove());

const serve = async (file: string, text: string) => {
  writeFileSync(join(project, file), text);
  const run = await mcpkit(["serve", file, "--stdio"], { cwd: project });
  expect(run.code).toBe(1);
  return run.stderr;
};

describe("mcpkit serve MODULE: a throw at load names its file and line", () => {
  it("a JavaScript module: JSON.parse of a variable that is not set", async () => {
    const stderr = await serve(
      "src/config.mjs",
      'import { createServer } from "mcpkit/server";\n\nconst settings = JSON.parse(process.env.NOT_SET);\nexport default () => createServer({ name: "x", version: "1" });\n',
    );
    expect(stderr).toBe(
      'mcpkit: src/config.mjs threw while loading, at src/config.mjs:3:23: SyntaxError: "undefined" is not valid JSON\n',
    );
  });

  it("a TypeScript module: the line of the TypeScript, through the source map", async () => {
    writeFileSync(
      join(project, "src/settings.ts"),
      "export function need(name: string): string {\n  const value: string | undefined = process.env[name];\n  if (!value) throw new Error(`${name} is not set`);\n  return value;\n}\n",
    );
    const stderr = await serve(
      "src/server.ts",
      'import { createServer } from "mcpkit/server";\nimport { need } from "./settings.js";\n\nconst key: string = need("API_KEY");\nexport default () => createServer({ name: key, version: "1" });\n',
    );
    expect(stderr).toBe(
      "mcpkit: src/server.ts threw while loading, at src/settings.ts:3:21: Error: API_KEY is not set\n",
    );
  });

  it("a syntax error, which Node keeps off the stack", async () => {
    const stderr = await serve("src/broken.mjs", "export default 1;\nconst = 2;\n");
    expect(stderr).toBe(
      "mcpkit: src/broken.mjs threw while loading, at src/broken.mjs:2:7: SyntaxError: Unexpected token '='\n",
    );
  });

  it("a default export that throws as it makes the server", async () => {
    const stderr = await serve(
      "src/factory.mjs",
      'export default function create() {\n  throw new Error("no database");\n}\n',
    );
    expect(stderr).toBe(
      "mcpkit: src/factory.mjs threw as its default export made the server, at src/factory.mjs:2:9: Error: no database\n",
    );
  });
});
