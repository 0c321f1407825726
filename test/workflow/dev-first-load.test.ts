import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { connected, openBrowser, openInspector } from "../inspector/browser.js";
import { see, show } from "../inspector/scenarios.js";
import { REPO_ROOT, scratch, startMcpkit, stopAll } from "./helpers.js";

// `mcpkit dev` whose module never loaded is not a healthy empty server: a client's lists
// are answered with an error naming the file and line that failed, a client in a session
// is told in a log message, and once a save makes the module load, everything is as usual.

let space: ReturnType<typeof scratch>;
let project = "";
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  requireBuild();
  space = scratch("dev-first-load");
  project = join(space.dir, "project");
  mkdirSync(join(project, "src"), { recursive: true });
  // As in a user's project: node_modules is a folder of the project (where the compiled
  // module goes, node_modules/.cache/mcpkit, inside the folder dev runs in), holding mcpkit.
  mkdirSync(join(project, "node_modules"));
  symlinkSync(join(REPO_ROOT, "node_modules", "mcpkit"), join(project, "node_modules", "mcpkit"));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await stopAll();
});
afterAll(() => space.remove());

const GOOD = `import { createServer } from "mcpkit/server";

export default function create() {
  const server = createServer({ name: "weather", version: "1.0.0" });
  server.tool("forecast", {}, () => "sunny");
  return server;
}
`;
/** TypeScript that does not compile: the failure is placed at src/server.ts:2. */
const SYNTAX_ERROR = "export default function () {\n  return 1 +;\n}\n";

async function connect(url: string, protocolVersion?: "2025-11-25"): Promise<{ client: Client; logs: string[] }> {
  const logs: string[] = [];
  const client = new Client({ name: "test", version: "1", ...(protocolVersion && { protocolVersion }) });
  client.on("notifications/message", (params) => logs.push(`${String(params.level)}: ${String(params.data)}`));
  await client.connect(streamableHttpClientTransport(new URL(url)));
  closers.push(() => client.close());
  return { client, logs };
}

/** Resolves once `condition` holds (it reads what arrives as it arrives). */
async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("mcpkit dev: a module that never loaded", () => {
  it("answers the lists with the file and line that failed, in both eras, and a session is told in a log message", async () => {
    writeFileSync(join(project, "src/server.ts"), SYNTAX_ERROR);
    const dev = startMcpkit(["dev", "src/server.ts", "--port", "0"], { cwd: project });
    const url = (await dev.waitFor(/serving MCP on (http:\/\/\S+\/mcp)/))[1] as string;
    expect(dev.stderr).toContain("src/server.ts did not load");

    const legacy = await connect(url, "2025-11-25");
    const modern = await connect(url);
    for (const { client } of [legacy, modern]) {
      await expect(client.listTools()).rejects.toThrow(
        /^src\/server\.ts did not load: src\/server\.ts:2:\d+: Unexpected ";"; fix it and save: it loads again on the next change$/,
      );
      await expect(client.listPrompts()).rejects.toThrow("src/server.ts:2:");
      await expect(client.callTool("forecast")).rejects.toThrow("src/server.ts:2:");
      // The connection itself is fine: it is the module that failed.
      await client.ping();
    }
    await until(() => legacy.logs.length > 0);
    expect(legacy.logs[0]).toMatch(/^error: src\/server\.ts did not load: src\/server\.ts:2:\d+: Unexpected ";"$/);

    // Saved right: it loads, the clients are told their lists changed, and the lists answer.
    const changes: string[] = [];
    await legacy.client.listen({ toolsListChanged: true }, (n) => changes.push(n.method));
    writeFileSync(join(project, "src/server.ts"), GOOD);
    await dev.waitFor(/reloaded weather 1\.0\.0/);
    await until(() => changes.length > 0);
    for (const { client } of [legacy, modern])
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["forecast"]);
  }, 60_000);

  it("names the file and line a module threw at as it loaded, and says a later failure while a version serves as a warning", async () => {
    writeFileSync(join(project, "src/settings.ts"), 'export const key = process.env.NO_SUCH_KEY ?? "";\n');
    writeFileSync(
      join(project, "src/server.ts"),
      `import { key } from "./settings.js";\nif (!key) throw new Error("NO_SUCH_KEY is not set");\n${GOOD}`,
    );
    const dev = startMcpkit(["dev", "src/server.ts", "--port", "0"], { cwd: project });
    const url = (await dev.waitFor(/serving MCP on (http:\/\/\S+\/mcp)/))[1] as string;
    const { client, logs } = await connect(url, "2025-11-25");
    await expect(client.listTools()).rejects.toThrow(
      /^src\/server\.ts threw while loading, at src\/server\.ts:2:\d+: Error: NO_SUCH_KEY is not set; fix it and save/,
    );

    writeFileSync(join(project, "src/server.ts"), GOOD);
    await dev.waitFor(/reloaded weather/);
    await until(() => logs.length > 0);
    const told = logs.length;
    writeFileSync(join(project, "src/server.ts"), SYNTAX_ERROR);
    await dev.waitFor(/did not load; the last version that loaded keeps serving/);
    await until(() => logs.length > told);
    expect(logs.at(-1)).toMatch(
      /^warning: src\/server\.ts did not load: src\/server\.ts:2:\d+: Unexpected ";"; the last version that loaded keeps serving$/,
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["forecast"]);
  }, 60_000);

  it("--inspect: the page says the server is failing and why, Enter prints a fresh link, and a fix clears it", async () => {
    writeFileSync(join(project, "src/server.ts"), SYNTAX_ERROR);
    const dev = startMcpkit(["dev", "src/server.ts", "--port", "0", "--inspect"], { cwd: project });
    const links = () => dev.stdout.match(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/gm) ?? [];
    await dev.waitFor(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m, 20_000, "stdout");
    expect(dev.stderr).toContain("Enter prints a fresh link");
    const browser = await openBrowser();
    closers.push(() => browser.close());
    const page = await openInspector(browser.context, links()[0] as string);
    const problem = page.getByTestId("server-problem");
    await see(problem, "The server is connected but failing");
    await see(problem, /tools: src\/server\.ts did not load: src\/server\.ts:2:\d+: Unexpected ";"/);

    // A second tab needs a fresh link: Enter in dev's terminal prints one, and it opens.
    dev.child.stdin?.write("\n");
    await until(() => links().length === 2);
    const second = await openInspector(browser.context, links()[1] as string);
    await see(second.getByTestId("server-problem"), "src/server.ts:2:");
    await second.close();

    writeFileSync(join(project, "src/server.ts"), GOOD);
    await dev.waitFor(/reloaded weather/);
    await show(page, "tools");
    await page.locator('.list-pane [data-tool="forecast"]').waitFor();
    await problem.waitFor({ state: "detached" });
    await connected(page);
  }, 90_000);
});
