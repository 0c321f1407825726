import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadedModules, packagesOf, RECORD_IMPORTS } from "../../../../test/loaded-modules.js";
import { ProcessPool, FIXTURES as STDIO_FIXTURES } from "../stdio/helpers.js";

// A stdio server starts on every launch of the desktop client that runs it, so what
// `mcpkit/server` loads is paid again and again. This is the budget of a plain tools-only
// server: importing `mcpkit/server` and `mcpkit/stdio`, declaring a tool, connecting, and
// answering a 2025-11-25 client's handshake, tools/list and tools/call. Everything else
// (tasks, prompts, resources, composition, visibility, the tool catalog, the 2026-07-28
// era, OAuth, HTTP) loads on first use, or never.

const FIXTURE = join(STDIO_FIXTURES, "../../startup/fixtures/tools-only-server.mjs");

/** The source modules of mcpkit a tools-only stdio server runs (packages/mcpkit/src/…). */
const TOOLS_ONLY_MODULES: string[] = [
  // The foundation (one chunk, shared with the client: scripts/bundle.mjs folds it whole).
  "connection/batch.ts",
  "connection/client-key.ts",
  "connection/connection-options.ts",
  "connection/connection-sink.ts",
  "connection/connection.ts",
  "connection/error-answer.ts",
  "connection/inbound-request.ts",
  "connection/middleware-chain.ts",
  "connection/outbound-request.ts",
  "connection/outbound-requests.ts",
  "connection/request-values.ts",
  "content.ts",
  "jsonrpc/errors.ts",
  "jsonrpc/message.ts",
  "protocol/era.ts",
  "protocol/implementation.ts",
  "protocol/input-answer.ts",
  "protocol/mcp-headers.ts",
  "protocol/merge-capabilities.ts",
  "protocol/meta.ts",
  "protocol/methods.ts",
  "protocol/revisions.ts",
  "protocol/skills.ts",
  "protocol/subscription-filter.ts",
  "protocol/tasks.ts",
  "protocol/types/common.ts",
  "protocol/uri-template.ts",
  "protocol/uri-template-match.ts",
  "protocol/versions.ts",
  "protocol/yaml.ts",
  "schema/ajv.ts",
  "schema/cfworker.ts",
  "schema/code-generation.ts",
  "schema/json-schema-check.ts",
  "schema/standard.ts",
  "schema/validator-choice.ts",
  "schema/validator.ts",
  "schema/without-patterns.ts",
  "transports/http/client-address.ts",
  "transports/transport.ts",
  // The stdio entry (its client transport too: the entry exports both).
  "transports/stdio/client-transport.ts",
  "transports/stdio/line-reader.ts",
  "transports/stdio/line-writer.ts",
  "transports/stdio/parent-exit.ts", // the client transport's one exit listener for all its children
  "transports/stdio/server-transport.ts",
  // The server: the facade and its definition, the legacy era, and the method table with
  // its tools and logging entries (the other families load on their first request).
  "server/catalog/catalog-options.ts", // whether the catalog is on; the catalog itself loads past its threshold
  "server/definition.ts",
  "server/dispatch/authorization.ts",
  "server/dispatch/client-peer.ts",
  "server/dispatch/elicitation-form.ts", // a round's requests must go out in the turn they are made
  "server/dispatch/encode.ts",
  "server/dispatch/handlers/logging.ts",
  "server/dispatch/handlers/tools.ts",
  "server/dispatch/list-page.ts",
  "server/dispatch/method.ts",
  "server/dispatch/request-context.ts",
  "server/dispatch/table.ts",
  "server/entry-handle.ts",
  "server/eras/handshake.ts",
  "server/eras/legacy/inbound.ts",
  "server/eras/legacy/session-views.ts",
  "server/eras/legacy/session.ts",
  "server/eras/modern/request-state.ts", // the requestStateKey option is checked by createServer
  "server/events.ts",
  "server/mcp-server.ts",
  "server/middleware/message-context.ts",
  "server/registry/feature-set.ts",
  "server/registry/tool.ts",
  "server/serve-connection.ts",
  "server/tasks/plan.ts", // whether a call runs as a task; the tasks runtime loads when one does
  "server/tasks/task-node.ts",
  "server/views.ts",
  "server/visibility.ts",
  // What McpServer's synchronous methods need (mount, prompt, resource, skill) and what the
  // entry point exports as values: neither can wait for an import.
  "server/apps.ts",
  "server/compose/mount-names.ts",
  "server/compose/mount.ts",
  "server/compose/sync.ts",
  "server/registry/completer.ts",
  "server/registry/prompt.ts",
  "server/registry/resource.ts",
  "server/registry/skill-directory.ts",
  "server/registry/skill.ts",
  "server/session-store.ts",
  "server/tasks/memory-task-store.ts",
  "server/tasks/settings.ts",
  "server/tasks/store.ts",
  "server/tasks/watchers.ts",
];

/** The packages it may load: the JSON Schema validator, compiled at the first tools/call. */
const TOOLS_ONLY_PACKAGES: string[] = ["ajv", "ajv-formats"];

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
