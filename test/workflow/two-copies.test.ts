import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { CLI_BIN, REPO_ROOT, scratch, startMcpkit, stopAll } from "./helpers.js";

// The global `mcpkit serve ./server.mjs` in a project with its own mcpkit: two copies of
// the library, the module's server made by the project's. The CLI serves it through the
// copy that made it (no "Cannot read private member #definition"), and says so when the
// versions differ. The project's copy is a real one: packages/mcpkit's build, copied.

let space: ReturnType<typeof scratch>;
afterEach(stopAll);
afterAll(() => space?.remove());

const SERVER = `import { createServer } from "mcpkit/server";
const server = createServer({ name: "theirs", version: "1.0.0" });
server.tool("hello", { description: "Says hello" }, () => "hello from the project's copy");
export default server;
`;

/** A project whose node_modules holds its own copy of mcpkit, at `version`. */
function project(name: string, version: string): string {
  const dir = join(space.dir, name);
  const copy = join(dir, "node_modules/mcpkit");
  mkdirSync(copy, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "packages/mcpkit/package.json"), "utf8"));
  writeFileSync(join(copy, "package.json"), JSON.stringify({ ...manifest, version }));
  cpSync(join(REPO_ROOT, "packages/mcpkit/dist"), join(copy, "dist"), { recursive: true });
  // Its dependencies, as npm would have installed them beside it.
  for (const dependency of Object.keys(manifest.dependencies)) {
    const scope = dependency.startsWith("@") ? dependency.split("/")[0] : undefined;
    if (scope) mkdirSync(join(dir, "node_modules", scope), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules", dependency), join(dir, "node_modules", dependency));
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, type: "module" }));
  writeFileSync(join(dir, "server.mjs"), SERVER);
  return dir;
}

beforeAll(() => {
  requireBuild();
  space = scratch("two-copies");
});

describe("mcpkit serve MODULE, the module's project having its own mcpkit", () => {
  it("serves it over HTTP through the project's copy, and says nothing when the versions agree", async () => {
    const dir = project(
      "same",
      JSON.parse(readFileSync(join(REPO_ROOT, "packages/mcpkit/package.json"), "utf8")).version,
    );
    const served = startMcpkit(["serve", "./server.mjs", "--port", "0"], { cwd: dir });
    const url = (await served.waitFor(/serving MCP on (http:\/\/\S+\/mcp)/))[1] as string;
    const client = new Client({ name: "test", version: "1" });
    await client.connect(streamableHttpClientTransport(new URL(url)));
    expect(client.serverInfo).toMatchObject({ name: "theirs" });
    expect(await client.callTool("hello")).toMatchObject({ content: [{ text: "hello from the project's copy" }] });
    await client.close();
    expect(served.stderr).not.toContain("private member");
    expect(served.stderr).not.toContain("note:");
  }, 60_000);

  it("says plainly when the project's mcpkit is another version, and serves it over HTTP and stdio all the same", async () => {
    const dir = project("other", "9.9.9");
    const served = startMcpkit(["serve", "./server.mjs", "--port", "0"], { cwd: dir });
    const url = (await served.waitFor(/serving MCP on (http:\/\/\S+\/mcp)/))[1] as string;
    expect(served.stderr).toContain(
      `mcpkit: note: ${join(dir, "server.mjs")} uses mcpkit 9.9.9 (${join(dir, "node_modules/mcpkit")}); this mcpkit command is `,
    );
    expect(served.stderr).toContain("The server is served by its own copy, 9.9.9");
    const client = new Client({ name: "test", version: "1" });
    await client.connect(streamableHttpClientTransport(new URL(url)));
    expect(await client.callTool("hello")).toMatchObject({ content: [{ text: "hello from the project's copy" }] });
    await client.close();

    const stdio = new Client({ name: "test", version: "1" });
    await stdio.connect(
      stdioClientTransport({ command: process.execPath, args: [CLI_BIN, "serve", "./server.mjs"], cwd: dir }),
    );
    expect(await stdio.callTool("hello")).toMatchObject({ content: [{ text: "hello from the project's copy" }] });
    await stdio.close();
  }, 60_000);
});
