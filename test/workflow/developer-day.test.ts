import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { npmCommand, npmEnv } from "../../scripts/node-runtime.mjs";
import { release } from "../../scripts/release.mjs";
import { FIXTURES, REPO_ROOT, type Running, scratch, start } from "./helpers.js";

// The developer's day, from the packed tarballs (npm run release) in an empty folder, as
// docs/workflow.md walks through it: create a project, run its tests, develop it with
// mcpkit dev while a client stays connected, call it by name from a .mcp.json, install it
// into Claude Desktop's configuration, bundle it into a .mcpb the official validator
// accepts, and write a server.json that validates. One project, one install, npm's cache.

let space: ReturnType<typeof scratch>;
let project = "";
let home = "";
let tarballs: Record<string, string> = {};
const env = () =>
  npmEnv({
    PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    // npm's cache stays the user's: the packages the project needs are there already.
    npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? "", ".npm"),
    NO_COLOR: "1",
    // Who the developer is, as git knows them: the scaffold names the package's author from it.
    GIT_AUTHOR_NAME: "Ada Lovelace",
    GIT_AUTHOR_EMAIL: "ada@example.com",
  });
const run = (tool: "npm" | "npx", args: string[], cwd = project, timeout = 240_000) => {
  const [command, ...prefix] = npmCommand(tool);
  return promisify(execFile)(command, [...prefix, ...args], { cwd, env: env(), timeout });
};
const running: Running[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  space = scratch("day");
  home = join(space.dir, "home");
  mkdirSync(home);
  const out = join(space.dir, "tarballs");
  tarballs = Object.fromEntries(release(out).map((p) => [p.name, join(out, p.file)]));
}, 240_000);
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const process of running.splice(0)) await process.stop();
});
afterAll(() => space.remove(), 120_000);

describe("a developer's day, from the packed tarballs in an empty folder", () => {
  it("creates a project with create-mcpkit and installs it", async () => {
    const empty = join(space.dir, "work");
    mkdirSync(empty);
    await run(
      "npm",
      [
        "exec",
        "--yes",
        `--package=${tarballs["create-mcpkit"]}`,
        "--",
        "create-mcpkit",
        "day",
        "--template",
        "stdio",
      ].concat(["--no-install", "--mcp-name", "io.github.example/day", "--from", dirname(tarballs.mcpkit as string)]),
      empty,
    );
    project = join(empty, "day");
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8"))).toMatchObject({
      name: "day",
      mcpName: "io.github.example/day",
      // --from: until mcpkit is on the registry, its packages come from the tarballs.
      dependencies: { mcpkit: `file:${tarballs.mcpkit}` },
      devDependencies: { "@mcpkit/cli": `file:${tarballs["@mcpkit/cli"]}` },
    });
    // A plain install, as the project's README says; better-sqlite3's native build (the
    // CLI's optional dependency) is not what this tests.
    await run("npm", ["install", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"]);
    expect(readFileSync(join(project, "node_modules/mcpkit/package.json"), "utf8")).toContain('"name": "mcpkit"');
  }, 300_000);

  it("runs the project's tests", async () => {
    const { stdout } = await run("npm", ["test"]);
    expect(stdout).toMatch(/# fail 0/);
    expect(stdout).toMatch(/# pass 5/);
    // Its YAML tests, against the server as mcpkit serve starts it.
    const yaml = await run("npm", ["run", "-s", "test:mcp"]);
    expect(yaml.stdout.trimEnd().split("\n").at(-1)).toBe("3 passed, 0 failed");
  }, 180_000);

  it("mcpkit dev: a change reaches a connected client within 2 s", async () => {
    const dev = start(
      process.execPath,
      ["node_modules/@mcpkit/cli/bin/mcpkit.js", "dev", "src/server.ts", "--port", "0"],
      {
        cwd: project,
        env: env(),
      },
    );
    running.push(dev);
    const url = (await dev.waitFor(/serving MCP on (http:\/\/\S+\/mcp)/))[1] as string;
    const client = new Client({ name: "day", version: "1" });
    await client.connect(streamableHttpClientTransport(new URL(url)));
    closers.push(() => client.close());
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => {
      changed = resolve;
    });
    await client.listen({ toolsListChanged: true }, () => changed());
    expect((await client.tools()).map((t) => t.name)).toEqual(["greet"]);

    const file = join(project, "src/server.ts");
    const source = readFileSync(file, "utf8");
    const edited = source.replace(
      "  return server;",
      '  server.tool("farewell", { description: "Says goodbye" }, () => "Goodbye!");\n  return server;',
    );
    const saved = Date.now();
    writeFileSync(file, edited);
    await listChanged;
    expect(Date.now() - saved).toBeLessThan(2000);
    expect(await client.callTool("farewell")).toMatchObject({ content: [{ text: "Goodbye!" }] });
    writeFileSync(file, source);
  }, 120_000);

  it("calls the built server by its name in a .mcp.json", async () => {
    await run("npm", ["run", "build"]);
    writeFileSync(
      join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { day: { command: "node", args: ["dist/main.js"] } } }),
    );
    mkdirSync(join(project, "src/nested"), { recursive: true });
    const { stdout } = await run("npx", ["mcpkit", "call", "day", "greet", "name=Ada"], join(project, "src/nested"));
    expect(stdout).toBe("Hello, Ada!\n");
  }, 120_000);

  it("installs it into Claude Desktop's configuration, whose entry starts it", async () => {
    const { stdout } = await run("npx", ["mcpkit", "install", "claude-desktop", "--", "node", "dist/main.js"]);
    const file = join(home, ".config/Claude/claude_desktop_config.json");
    expect(stdout).toContain(`Added "day" in ${file}`);
    const entry = JSON.parse(readFileSync(file, "utf8")).mcpServers.day;
    expect(entry).toEqual({ command: "node", args: [join(project, "dist/main.js")] });
    // What Claude Desktop would run, from its own folder.
    const client = new Client({ name: "claude-desktop-stand-in", version: "1" });
    await client.connect(stdioClientTransport({ command: entry.command, args: entry.args, cwd: home }));
    closers.push(() => client.close());
    expect(await client.callTool("greet", { name: "Grace" })).toMatchObject({ content: [{ text: "Hello, Grace!" }] });
  }, 120_000);

  it("bundles it into a .mcpb the official validator accepts, which runs unpacked", async () => {
    const { stdout } = await run("npm", ["run", "bundle"]);
    expect(stdout).toMatch(/Wrote day-0\.1\.0\.mcpb \(\d+ KB\): day 0\.1\.0, 1 tool, 1 prompt/);
    const mcpb = join(REPO_ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
    const unpacked = join(space.dir, "unpacked");
    await promisify(execFile)(process.execPath, [mcpb, "unpack", join(project, "day-0.1.0.mcpb"), unpacked]);
    const validated = await promisify(execFile)(process.execPath, [mcpb, "validate", join(unpacked, "manifest.json")]);
    expect(validated.stdout).toContain("Manifest schema validation passes!");
    const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "day",
      icon: "icon.png",
      tools: [{ name: "greet" }],
      author: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    const client = new Client({ name: "claude-desktop-stand-in", version: "1" });
    await client.connect(
      stdioClientTransport({ command: process.execPath, args: [join(unpacked, manifest.server.entry_point)] }),
    );
    closers.push(() => client.close());
    expect(await client.callTool("greet", { name: "Lin" })).toMatchObject({ content: [{ text: "Hello, Lin!" }] });
  }, 120_000);

  it("writes a server.json the MCP Registry's schema accepts", async () => {
    await run("npx", ["mcpkit", "bundle", "src/server.ts", "--server-json"]);
    const json = JSON.parse(readFileSync(join(project, "server.json"), "utf8"));
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(FIXTURES, "registry/server.schema.json"), "utf8")));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json).toMatchObject({
      name: "io.github.example/day",
      version: "0.1.0",
      packages: [{ registryType: "npm", identifier: "day", version: "0.1.0", transport: { type: "stdio" } }],
    });
  }, 120_000);
});
