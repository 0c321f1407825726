import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmCommand, npmEnv } from "../../scripts/node-runtime.mjs";
import { requireBuild } from "../cli-call/helpers.js";

// The packages as users get them: `npm pack` makes the tarballs, an empty project outside
// the repository installs them, and there a script runs a server and a client, and the
// workspace server runs over stdio through npx exactly as the README's Install section
// configures it, with `mcpkit call` as the client.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGES = ["packages/mcpkit", "packages/servers", "packages/cli", "packages/redis"];

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}
interface Manifest {
  name: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  files?: string[];
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

let dir = "";
let project = "";
const packed: { packed: Packed; manifest: Manifest }[] = [];
const env = npmEnv({ PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), NO_COLOR: "1" });
const run = (tool: "npm" | "npx", args: string[], cwd: string, timeout = 120_000) => {
  const [command, ...prefix] = npmCommand(tool);
  return promisify(execFile)(command, [...prefix, ...args], { cwd, env, timeout });
};

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-packed-"));
  const tarballs = join(dir, "tarballs");
  mkdirSync(tarballs);
  for (const pkg of PACKAGES) {
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", tarballs], join(ROOT, pkg));
    const manifest = JSON.parse(readFileSync(join(ROOT, pkg, "package.json"), "utf8")) as Manifest;
    packed.push({ packed: (JSON.parse(stdout) as Packed[])[0] as Packed, manifest });
  }
  project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), '{ "name": "an-app", "private": true, "type": "module" }\n');
  // Installed as a user would, but for one step: better-sqlite3's native build (its install
  // script) is not run again; the binary this clone's `npm install` built for this Node is
  // put where that build would put it. Compiling SQLite a second time would only test
  // better-sqlite3, and cost minutes.
  const files = packed.map((p) => join(tarballs, p.packed.filename));
  await run("npm", ["install", ...files, "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], project);
  const binary = join("better-sqlite3", "build", "Release", "better_sqlite3.node");
  mkdirSync(dirname(join(project, "node_modules", binary)), { recursive: true });
  copyFileSync(join(ROOT, "node_modules", binary), join(project, "node_modules", binary));
}, 300_000);
// A whole node_modules tree to remove: more than the default hook bound under load.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

describe("the tarballs", () => {
  it("are mcpkit (the library), @mcpkit/servers (the built-in servers), @mcpkit/cli (the one command, mcpkit) and @mcpkit/redis (cluster stores)", () => {
    expect(packed.map((p) => p.packed.name)).toEqual(["mcpkit", "@mcpkit/servers", "@mcpkit/cli", "@mcpkit/redis"]);
    const [library, servers, cli, redis] = packed.map((p) => p.manifest) as [Manifest, Manifest, Manifest, Manifest];
    expect(library.bin).toBeUndefined();
    // npx runs a package's only bin: `npx @mcpkit/cli serve …` is `mcpkit serve …`.
    expect(Object.keys(cli.bin ?? {})).toEqual(["mcpkit"]);
    expect(cli.dependencies?.mcpkit).toBe(readJson("packages/mcpkit/package.json").version);
    expect(cli.dependencies?.["@mcpkit/servers"]).toBe(readJson("packages/servers/package.json").version);
    // The servers' heavy packages are optional peers: mounting the weather server brings no native build.
    expect(servers.dependencies ?? {}).not.toHaveProperty("better-sqlite3");
    expect(servers.dependencies ?? {}).not.toHaveProperty("@octokit/rest");
    expect(cli.optionalDependencies).toHaveProperty("better-sqlite3");
    // Clusters only: the command does not make every user install a Redis client.
    expect(cli.dependencies).not.toHaveProperty("@mcpkit/redis");
    expect(redis.dependencies).toHaveProperty("ioredis");
    expect(library.dependencies ?? {}).not.toHaveProperty("ioredis");
  });

  it.each(PACKAGES)("%s ships its README, LICENSE, engines, bin and every file its exports name", (pkg) => {
    const { packed: tarball, manifest } = packed[PACKAGES.indexOf(pkg)] as (typeof packed)[number];
    const files = new Set(tarball.files.map((f) => f.path));
    expect([...files].filter((f) => !f.includes("/")).sort()).toEqual(["LICENSE", "README.md", "package.json"]);
    expect(manifest.engines?.node).toBe(">=20");
    for (const target of Object.values(manifest.bin ?? {})) expect(files).toContain(target.replace(/^\.\//, ""));
    const targets = Object.values(manifest.exports ?? {}).flatMap((t) =>
      typeof t === "string" ? [t] : Object.values(t),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(files, `${pkg}: ${target}`).toContain(target.replace(/^\.\//, ""));
    expect([...files].some((f) => /\.test\.[jt]s$/.test(f))).toBe(false);
  });
});

function readJson(file: string): { version: string } {
  return JSON.parse(readFileSync(join(ROOT, file), "utf8"));
}

describe("installed into an empty project outside the repository", () => {
  it("runs a server and a client in one script", async () => {
    writeFileSync(
      join(project, "app.mjs"),
      `import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";

const server = createServer({ name: "app", version: "1.0.0" });
const input = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
server.tool("greet", { description: "Greets", input }, async ({ name }) => \`Hello, \${name}!\`);
const listening = await listen(createStreamableHttpHandler(server));
const client = new Client({ name: "app-client", version: "1.0.0" });
await client.connect(streamableHttpClientTransport(new URL("/mcp", listening.url)));
const result = await client.callTool("greet", { name: "Ada" });
const refused = await client.callTool("greet", { name: 42 }).then((r) => r.isError, (e) => e.message);
console.log(JSON.stringify({ text: result.content[0].text, revision: client.protocolVersion, refused }));
await client.close();
await listening.close();
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ["app.mjs"], { cwd: project, env, timeout: 30_000 });
    const report = JSON.parse(stdout);
    expect(report.text).toBe("Hello, Ada!");
    expect(report.revision).toBe("2026-07-28");
    expect(report.refused).toBeTruthy(); // the raw JSON Schema is enforced: Ajv came with the package
  }, 60_000);

  it("serves the workspace over stdio with SQLite through npx, as the README configures it, to mcpkit call", async () => {
    const folder = join(dir, "folder");
    mkdirSync(folder);
    writeFileSync(join(folder, "notes.txt"), "from the packed install\n");
    const db = join(dir, "data.sqlite");
    const sqlite = `const D = require("better-sqlite3"); const db = new D(process.argv[1]);
db.exec("CREATE TABLE fruit (name TEXT); INSERT INTO fruit VALUES ('apple'), ('pear')"); db.close();`;
    await promisify(execFile)(process.execPath, ["-e", sqlite, db], { cwd: project, env });

    const { command, args } = readmeConfig();
    expect(command).toBe("npx");
    const server = args.map((a) => a.replace("/path/to/folder", folder).replace("/path/to/data.sqlite", db));
    const query = await run(
      "npx",
      ["mcpkit", "call", "read_query", "sql=SELECT name FROM fruit ORDER BY name", "--", command, ...server],
      project,
    );
    expect(JSON.parse(query.stdout)).toMatchObject({ columns: ["name"], rows: [["apple"], ["pear"]] });
    const file = await run("npx", ["mcpkit", "call", "read_file", "path=notes.txt", "--", command, ...server], project);
    expect(file.stdout).toContain("from the packed install");
  }, 120_000);
});

/** The MCP client configuration in the README's Install section. */
function readmeConfig(): { command: string; args: string[] } {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Install");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (!json) throw new Error("README.md's Install section has no JSON configuration");
  return (JSON.parse(json) as { mcpServers: { workspace: { command: string; args: string[] } } }).mcpServers.workspace;
}
