import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadedModules, packagesOf, RECORD_IMPORTS } from "../../../../test/loaded-modules.js";
import { FIXTURES as STDIO_FIXTURES, ProcessPool } from "../stdio/helpers.js";

// A stdio server starts on every launch of the desktop client that runs it, so what
// `mcpkit/server` loads is paid again and again. This is the budget of a plain tools-only
// server: importing `mcpkit/server` and `mcpkit/stdio`, declaring a tool, connecting, and
// answering a 2025-11-25 client's handshake, tools/list and tools/call. Everything else
// (tasks, prompts, resources, composition, visibility, the tool catalog, the 2026-07-28
// era, OAuth, HTTP) loads on first use, or never.

const FIXTURE = join(STDIO_FIXTURES, "../../startup/fixtures/tools-only-server.mjs");

/** The source modules of mcpkit a tools-only stdio server runs (packages/mcpkit/src/…). */
const TOOLS_ONLY_MODULES: string[] = [];

/** The packages it may load: the JSON Schema validator, compiled at the first tools/call. */
const TOOLS_ONLY_PACKAGES: string[] = [];

const pool = new ProcessPool();
let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-module-budget-"));
});
afterEach(() => pool.cleanup());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the fixture through a handshake, tools/list and one call; what it loaded. */
async function serveToolsOnly(env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const log = join(dir, `imports-${Math.random().toString(36).slice(2)}.log`);
  const server = pool.spawn(process.execPath, ["--import", RECORD_IMPORTS, FIXTURE], {
    env: { ...process.env, IMPORT_LOG: log, ...env },
  });
  await server.initialize("2025-11-25");
  const list = await server.request(2, "tools/list", {});
  expect(list).toMatchObject({ result: { tools: [{ name: "echo" }] } });
  const call = await server.request(3, "tools/call", { name: "echo", arguments: { text: "hi" } });
  expect(call).toMatchObject({ result: { content: [{ type: "text", text: "hi" }] } });
  server.endInput();
  expect(await server.waitExit(10_000)).toMatchObject({ code: 0 });
  return loadedModules(readFileSync(log, "utf8"));
}

const MCPKIT_SRC = "packages/mcpkit/src/";
const mcpkitModules = (modules: string[]) =>
  modules.filter((m) => m.startsWith(MCPKIT_SRC)).map((m) => m.slice(MCPKIT_SRC.length));

/** What the budget check says of a run: the modules and packages beyond the budget. */
function overBudget(modules: string[]) {
  return {
    modules: mcpkitModules(modules).filter((m) => !TOOLS_ONLY_MODULES.includes(m)),
    packages: packagesOf(modules).filter((p) => !TOOLS_ONLY_PACKAGES.includes(p)),
  };
}

describe("a tools-only stdio server loads only what it uses", () => {
  it("stays within its module budget", async () => {
    const loaded = await serveToolsOnly();
    console.log(JSON.stringify(mcpkitModules(loaded), null, 1), packagesOf(loaded));
    const over = overBudget(loaded);
    expect(
      over.modules,
      `A tools-only stdio server now loads ${over.modules.map((m) => MCPKIT_SRC + m).join(", ")}. ` +
        "Load what such a server does not use on first use (a dynamic import()), or, if every " +
        "tools-only server needs it, add it to TOOLS_ONLY_MODULES in this file.",
    ).toEqual([]);
    expect(
      over.packages,
      `A tools-only stdio server now loads the package(s) ${over.packages.join(", ")}. Load them on ` +
        "first use, or add them to TOOLS_ONLY_PACKAGES if every tools-only server needs them.",
    ).toEqual([]);
    const unused = TOOLS_ONLY_MODULES.filter((m) => !mcpkitModules(loaded).includes(m));
    expect(unused, `No longer loaded, so take them off TOOLS_ONLY_MODULES: ${unused.join(", ")}`).toEqual([]);
  });

  it("the check sees what another entry point loads (it can fail)", async () => {
    const over = overBudget(await serveToolsOnly({ ALSO_IMPORT: "mcpkit/http" }));
    expect(over.modules).toContain("endpoints/http/handler.ts");
  });
});
