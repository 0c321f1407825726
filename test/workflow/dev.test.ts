import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_FOLDERS } from "../../packages/cli/src/commands/dev/watch.js";
import { requireBuild } from "../cli-call/helpers.js";
import { connected, openBrowser, openInspector } from "../inspector/browser.js";
import { show } from "../inspector/scenarios.js";
import { CLI_BIN, REPO_ROOT, type Running, scratch, startMcpkit, stopAll } from "./helpers.js";

// `mcpkit dev MODULE`: a client connected to it stays connected while the module is edited,
// and is told each time the lists change; a version that does not load leaves the last
// good one serving.

let space: ReturnType<typeof scratch>;
let project = "";
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  requireBuild();
  space = scratch("dev");
  project = join(space.dir, "project");
  mkdirSync(join(project, "src"), { recursive: true });
  // The project's packages are this repository's (mcpkit itself, its build).
  symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await stopAll();
});
afterAll(() => space.remove());

/** A server module whose tools are the names given, each answering with `answer`. */
function writeModule(file: string, tools: string[], answer = "ok"): void {
  writeFileSync(
    join(project, file),
    `import { createServer, type ServerOptions } from "mcpkit/server";
import { suffix } from "./suffix.js";

export default function create(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: "dev-fixture", version: "1.0.0", ...options });
${tools.map((t) => `  server.tool(${JSON.stringify(t)}, {}, () => ${JSON.stringify(answer)} + suffix);`).join("\n")}
  return server;
}
`,
  );
}

async function startDev(args: string[] = []): Promise<{ dev: Running; client: Client; changes: string[] }> {
  const dev = startMcpkit(["dev", "src/server.ts", "--port", "0", ...args], { cwd: project });
  const url = (await dev.waitFor(/serving MCP on (http:\/\/\S+\/mcp)/))[1] as string;
  const client = new Client({ name: "test", version: "1" });
  await client.connect(streamableHttpClientTransport(new URL(url)));
  closers.push(() => client.close());
  const changes: string[] = [];
  await client.listen({ toolsListChanged: true }, (n) => changes.push(n.method));
  return { dev, client, changes };
}

const names = async (client: Client) => (await client.tools()).map((t) => t.name);

/** Resolves once `condition` holds (checked as the files it reads change). */
async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once `changes` has grown past `count`. */
async function nextChange(changes: string[], count: number, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (changes.length <= count) {
    if (Date.now() > deadline) throw new Error("no list_changed arrived");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("mcpkit dev", () => {
  it("keeps a client connected across a reload: it gets list_changed within 2 s and calls the new tool", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "!";\n');
    writeModule("src/server.ts", ["greet"], "hello");
    const { dev, client, changes } = await startDev();
    await dev.waitFor(/loaded dev-fixture 1\.0\.0 \(1 tool, 0 resources, 0 prompts\)/);
    expect(await names(client)).toEqual(["greet"]);

    const saved = Date.now();
    writeModule("src/server.ts", ["greet", "wave"], "hello");
    await nextChange(changes, 0);
    expect(Date.now() - saved).toBeLessThan(2000);
    expect(await names(client)).toEqual(["greet", "wave"]);
    expect(await client.callTool("wave")).toMatchObject({ content: [{ text: "hello!" }] });

    // A file the module imports counts too.
    const count = changes.length;
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "?";\n');
    await nextChange(changes, count);
    expect(await client.callTool("wave")).toMatchObject({ content: [{ text: "hello?" }] });
  }, 60_000);

  it("prints a version that does not load, keeps the last good one serving, and reloads the fix", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "";\n');
    writeModule("src/server.ts", ["steady"]);
    const { dev, client, changes } = await startDev();
    await dev.waitFor(/loaded dev-fixture/);

    writeFileSync(join(project, "src/server.ts"), "export default function () {\n  return 1 +;\n}\n");
    await dev.waitFor(
      /did not load; the last version that loaded keeps serving:\n {2}src\/server\.ts:2:\d+: Unexpected ";"/,
    );
    expect(await client.callTool("steady")).toMatchObject({ content: [{ text: "ok" }] });

    // A module that compiles but exports no server: what mcpkit serve says, passed on.
    writeFileSync(join(project, "src/server.ts"), "export default 42;\n");
    await dev.waitFor(/must export its server/);
    expect(await names(client)).toEqual(["steady"]);

    const before = changes.length;
    writeModule("src/server.ts", ["steady", "fixed"]);
    await nextChange(changes, before);
    expect(await names(client)).toEqual(["fixed", "steady"]);
  }, 60_000);

  it("reloads a file saved by renaming a copy over it, every time (as vim, sed -i and safe-write editors save)", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "";\n');
    writeModule("src/server.ts", ["v1"]);
    const { dev, client, changes } = await startDev();
    await dev.waitFor(/loaded dev-fixture/);
    for (const tools of [["v1", "v2"], ["v1", "v2", "v3"], ["v1"]]) {
      const before = changes.length;
      writeModule("src/server.ts.tmp", tools);
      renameSync(join(project, "src/server.ts.tmp"), join(project, "src/server.ts"));
      await nextChange(changes, before);
      expect(await names(client)).toEqual(tools);
    }
  }, 60_000);

  it("serves an MCP client that starts it over stdio, which sees the reloads too", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "";\n');
    writeModule("src/server.ts", ["one"]);
    const client = new Client({ name: "test", version: "1" });
    const transport = stdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, "dev", join(project, "src/server.ts"), "--stdio"],
      cwd: project,
      stderr: "pipe",
    });
    await client.connect(transport);
    closers.push(() => client.close());
    expect(client.serverInfo).toMatchObject({ name: "dev-fixture" });
    const changes: string[] = [];
    await client.listen({ toolsListChanged: true }, (n) => changes.push(n.method));
    expect(await names(client)).toEqual(["one"]);
    writeModule("src/server.ts", ["one", "two"]);
    await nextChange(changes, 0);
    expect(await names(client)).toEqual(["one", "two"]);
  }, 60_000);

  it("--inspect starts the web inspector beside it, which stays connected across reloads", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "";\n');
    writeModule("src/server.ts", ["first"]);
    const dev = startMcpkit(["dev", "src/server.ts", "--port", "0", "--inspect"], { cwd: project });
    const url = (await dev.waitFor(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m, 20_000, "stdout"))[0];
    const browser = await openBrowser();
    closers.push(() => browser.close());
    const page = await openInspector(browser.context, url);
    await show(page, "tools");
    await page.locator('.list-pane [data-tool="first"]').waitFor();
    writeModule("src/server.ts", ["first", "second"]);
    await dev.waitFor(/reloaded dev-fixture 1\.0\.0 \(2 tools/);
    // The same connection is told (2026-07-28: on its subscriptions/listen stream), and the
    // page lists the new version's tools by itself.
    await page.locator('.list-pane [data-tool="second"]').waitFor();
    await connected(page);
    await show(page, "protocol");
    await page.getByLabel("Filter messages").fill("notifications/tools/list_changed");
    await page.locator('table.protocol tr.msg[data-method="notifications/tools/list_changed"]').first().waitFor();
  }, 90_000);

  it("watches a folder removed and made again (a branch switched): a save in it reloads as before", async () => {
    mkdirSync(join(project, "src/lib"), { recursive: true });
    writeFileSync(join(project, "src/lib/suffix.ts"), 'export const suffix = "1";\n');
    writeFileSync(join(project, "src/suffix.ts"), 'export { suffix } from "./lib/suffix.js";\n');
    writeModule("src/server.ts", ["s"]);
    const { dev, client, changes } = await startDev();
    await dev.waitFor(/loaded dev-fixture/);
    rmSync(join(project, "src/lib"), { recursive: true });
    await dev.waitFor(/did not load; the last version that loaded keeps serving/);
    let before = changes.length;
    mkdirSync(join(project, "src/lib"));
    writeFileSync(join(project, "src/lib/suffix.ts"), 'export const suffix = "2";\n');
    await nextChange(changes, before);
    expect(await client.callTool("s")).toMatchObject({ content: [{ text: "ok2" }] });
    before = changes.length;
    writeFileSync(join(project, "src/lib/suffix.ts"), 'export const suffix = "3";\n');
    await nextChange(changes, before);
    expect(await client.callTool("s")).toMatchObject({ content: [{ text: "ok3" }] });
    rmSync(join(project, "src/lib"), { recursive: true });
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "";\n');
  }, 60_000);

  it("watches at most MAX_FOLDERS folders of a tree, and says so (a module in a home folder)", async () => {
    const home = join(space.dir, "home");
    for (let i = 0; i <= MAX_FOLDERS; i++) mkdirSync(join(home, "projects", `p${i}`), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(home, "node_modules"));
    writeFileSync(
      join(home, "server.mjs"),
      'import { createServer } from "mcpkit/server";\nexport default () => createServer({ name: "home", version: "1.0.0" });\n',
    );
    const dev = startMcpkit(["dev", "server.mjs", "--port", "0"], { cwd: home });
    await dev.waitFor(
      new RegExp(`mcpkit dev: ${home} holds more than ${MAX_FOLDERS} folders: only ${MAX_FOLDERS} are watched`),
    );
    await dev.waitFor(/loaded home 1\.0\.0/);
  }, 60_000);

  it("reloads for an edit to a file the module imports, never for the log it appends to beside itself", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "1";\n');
    // The server writes a log beside its source every few milliseconds, from the moment it loads.
    writeFileSync(
      join(project, "src/server.ts"),
      `import { appendFileSync } from "node:fs";
import { createServer } from "mcpkit/server";
import { suffix } from "./suffix.js";

const log = new URL("./server.log", import.meta.url);
setInterval(() => appendFileSync(log, \`\${Date.now()} still here\\n\`), 3).unref();

export default () => {
  const server = createServer({ name: "logger", version: "1.0.0" });
  server.tool("s", {}, () => "ok" + suffix);
  return server;
};
`,
    );
    const { dev, client, changes } = await startDev();
    await dev.waitFor(/loaded logger 1\.0\.0/);
    // The log grows: hundreds of changes beside the module, none of them a reload.
    const logFile = join(project, "src/server.log");
    await until(() => existsSync(logFile) && readFileSync(logFile, "utf8").split("\n").length > 300);
    expect(dev.stderr).not.toMatch(/reloading/);
    // A real edit reloads, though the log never stops changing.
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "2";\n');
    await nextChange(changes, 0);
    expect(await client.callTool("s")).toMatchObject({ content: [{ text: "ok2" }] });
    expect(dev.stderr.match(/reloading/g)).toEqual(["reloading"]);
    expect(dev.stderr).toContain("src/suffix.ts changed, reloading");
    await dev.stop();
    rmSync(logFile, { force: true });
  }, 60_000);

  it("stops reloading after more than 20 reloads in 10 s, saying why, and keeps serving", async () => {
    writeFileSync(join(project, "src/suffix.ts"), 'export const suffix = "";\n');
    writeModule("src/server.ts", ["kept"]);
    mkdirSync(join(project, "generated"), { recursive: true });
    const { dev, client } = await startDev(["--watch", "generated"]);
    await dev.waitFor(/loaded dev-fixture/);
    // Something rewrites a watched file again and again, each time after a quiet moment.
    let n = 0;
    const writer = setInterval(() => writeFileSync(join(project, "generated/out.txt"), String(n++)), 120);
    try {
      await dev.waitFor(
        /more than 20 reloads in 10 s \(the last for generated\/out\.txt\): something keeps changing the files it watches\. Reloading is stopped/,
      );
    } finally {
      clearInterval(writer);
    }
    expect(await client.callTool("kept")).toMatchObject({ content: [{ text: "ok" }] });
  }, 60_000);

  it("refuses a module that is not there", async () => {
    const dev = startMcpkit(["dev", "src/missing.ts"], { cwd: project });
    await dev.waitFor(/No such module: src\/missing\.ts/);
  });
});
