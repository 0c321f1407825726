// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an MCP Bundle manifest holds ${…} placeholders as text
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zip } from "../../packages/cli/src/commands/bundle/zip.js";
import { requireBuild } from "../cli-call/helpers.js";
import { FIXTURES, mcpkit, REPO_ROOT, scratch } from "./helpers.js";

// `mcpkit bundle`: an MCP Bundle the official validator (@anthropic-ai/mcpb) accepts,
// unpacked and started as Claude Desktop starts it; `--server-json`: a server.json valid
// under the MCP Registry's schema (test/workflow/fixtures/registry/server.schema.json).

const MCPB = join(REPO_ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
let space: ReturnType<typeof scratch>;
let project = "";

beforeAll(() => {
  requireBuild();
  space = scratch("bundle");
  project = join(space.dir, "notes");
  mkdirSync(join(project, "src"), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"));
  copyFileSync(join(FIXTURES, "notes-server.ts"), join(project, "src/server.ts"));
  copyFileSync(join(FIXTURES, "motto.txt"), join(project, "src/motto.txt"));
  copyFileSync(join(REPO_ROOT, "packages/create-mcpkit/templates/base/icon.png"), join(project, "icon.png"));
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({
      name: "@example/notes",
      version: "2.1.0",
      description: "Keeps notes close",
      author: "Ada Lovelace <ada@example.com>",
      license: "MIT",
      repository: "github:example/notes",
      mcpName: "io.github.example/notes",
      type: "module",
    })}\n`,
  );
});
afterAll(() => space.remove());

/** The official tool, as its users run it. */
const mcpb = (args: string[]) => promisify(execFile)(process.execPath, [MCPB, ...args], { cwd: space.dir });

async function unpack(file: string, into: string): Promise<Record<string, unknown>> {
  await mcpb(["unpack", file, into]);
  const validated = await mcpb(["validate", join(into, "manifest.json")]);
  expect(validated.stdout).toContain("Manifest schema validation passes!");
  return JSON.parse(readFileSync(join(into, "manifest.json"), "utf8"));
}

/** Starts the unpacked bundle's server as its manifest says a client should, with `env` for its settings. */
async function startUnpacked(
  dir: string,
  manifest: Record<string, unknown>,
  args: string[],
  env: Record<string, string>,
) {
  const config = (manifest.server as { mcp_config: { command: string; args: string[] } }).mcp_config;
  expect(config.command).toBe("node");
  const resolved = config.args.map((a) => a.replace("${__dirname}", dir));
  const client = new Client({ name: "claude-desktop-stand-in", version: "1" });
  await client.connect(
    stdioClientTransport({ command: process.execPath, args: [...resolved.slice(0, 1), ...args], env, stderr: "pipe" }),
  );
  return client;
}

describe("mcpkit bundle MODULE", () => {
  let manifest: Record<string, unknown>;
  const unpacked = () => join(space.dir, "unpacked");

  beforeAll(async () => {
    const run = await mcpkit(["bundle", "src/server.ts", "--include", "motto.txt"], { cwd: project, timeout: 60_000 });
    expect(run.stderr).toBe("");
    // What went in is listed, a line a file, the files --include brought marked.
    expect(run.stdout).toMatch(
      new RegExp(
        [
          "^Wrote notes-2\\.1\\.0\\.mcpb \\(\\d+ KB\\): notes 2\\.1\\.0, 1 tool, 1 prompt, 2 settings",
          "It holds:",
          "  icon\\.png \\d+ KB",
          "  manifest\\.json \\d+ KB",
          "  server/index\\.js \\d+ KB: the server and every package it imports, built into one file",
          "  server/motto\\.txt \\d+ B \\(--include\\)",
          "  server/package\\.json 21 B\n$",
        ].join("\n"),
      ),
    );
    manifest = await unpack(join(project, "notes-2.1.0.mcpb"), unpacked());
  }, 120_000);

  it("makes a manifest the official validator accepts, from package.json and the running server's lists", () => {
    expect(manifest).toMatchObject({
      manifest_version: "0.3",
      name: "notes",
      version: "2.1.0",
      description: "Keeps notes close",
      author: { name: "Ada Lovelace", email: "ada@example.com" },
      repository: { type: "git", url: "https://github.com/example/notes" },
      license: "MIT",
      icon: "icon.png",
      icons: [{ src: "icon.png", size: "512x512" }],
      tools: [{ name: "motto", description: "The motto, and the notes folder" }],
      prompts: [
        {
          name: "summarize",
          description: "Summarize a note",
          arguments: ["title"],
          text: "Summarize the note titled ${arguments.title}.",
        },
      ],
      server: {
        type: "node",
        entry_point: "server/index.js",
        mcp_config: {
          command: "node",
          args: ["${__dirname}/server/index.js"],
          env: { NOTES_DIR: "${user_config.notes_dir}", NOTES_KEY: "${user_config.api_key}" },
        },
      },
      user_config: {
        notes_dir: {
          type: "directory",
          title: "Notes folder",
          description: "Where the notes are kept",
          required: true,
        },
        api_key: { type: "string", title: "API key", description: "A key the server needs", sensitive: true },
      },
    });
  });

  it("starts from the unpacked bundle with nothing but Node, and answers", async () => {
    const client = await startUnpacked(unpacked(), manifest, [], { NOTES_DIR: "/home/ada/notes" });
    try {
      expect(await client.callTool("motto")).toMatchObject({ content: [{ text: "Write it down. (/home/ada/notes)" }] });
    } finally {
      await client.close();
    }
    // The packages came inside the bundle: no node_modules beside it.
    expect(existsSync(join(unpacked(), "node_modules"))).toBe(false);
  });

  it("refuses a module that does not start, and writes nothing", async () => {
    const run = await mcpkit(["bundle", join(FIXTURES, "fails-to-start.mjs"), "--out", "broken.mcpb"], {
      cwd: project,
      timeout: 60_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the database is not configured");
    expect(existsSync(join(project, "broken.mcpb"))).toBe(false);
  }, 60_000);
});

describe("mcpkit bundle: what goes in, and where it is written", () => {
  it("takes only files inside the module's folder from an --include folder, none that may hold secrets, and says what it left out", async () => {
    const data = join(project, "src/data");
    const outside = join(space.dir, "home/.ssh");
    mkdirSync(join(data, "deeper"), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "id_ed25519"), "PRIVATE KEY");
    writeFileSync(join(data, "cities.json"), "[]");
    writeFileSync(join(data, "deeper/notes.txt"), "kept");
    symlinkSync("cities.json", join(data, "alias.json")); // a link inside: its file goes in
    symlinkSync(outside, join(data, "secrets"));
    symlinkSync("/etc/passwd", join(data, "passwd"));
    symlinkSync("..", join(data, "deeper/loop"));
    writeFileSync(join(data, ".env"), "API_KEY=sk-live");
    writeFileSync(join(data, ".cities.json.swp"), "");
    writeFileSync(join(data, "deeper/notes.txt~"), "");
    writeFileSync(join(data, "old.mcpb"), "");
    mkdirSync(join(data, ".git"));
    writeFileSync(join(data, ".git/config"), "[core]");
    mkdirSync(join(project, "dist"), { recursive: true });
    const run = await mcpkit(
      [
        "bundle",
        "src/server.ts",
        "--include",
        "motto.txt",
        "--include",
        "data",
        "--include",
        "data/.env",
        "--out",
        "dist",
      ],
      {
        cwd: project,
        timeout: 60_000,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Wrote dist/notes-2.1.0.mcpb");
    expect(run.stderr).toBe(
      [
        "mcpkit bundle: left out of the bundle (name a file with --include to take it all the same):",
        "  data/.cities.json.swp: an editor's file",
        "  data/.git: version control",
        "  data/deeper/loop: a link to a folder already in the bundle",
        "  data/deeper/notes.txt~: an editor's file",
        "  data/old.mcpb: a bundle",
        `  data/passwd: a link to ${realpathSync("/etc/passwd")}, outside ${join(project, "src")}`,
        `  data/secrets: a link to ${outside}, outside ${join(project, "src")}`,
        "",
      ].join("\n"),
    );
    const dir = join(space.dir, "included");
    await unpack(join(project, "dist/notes-2.1.0.mcpb"), dir);
    const files = readdirSync(join(dir, "server/data"), { recursive: true, encoding: "utf8" }).sort();
    expect(files).toEqual([".env", "alias.json", "cities.json", "deeper", "deeper/notes.txt"]);
    // A file named with --include is taken as it is; a link out of the module's folder never is.
    const named = await mcpkit(["bundle", "src/server.ts", "--include", "data/secrets", "--out", "x.mcpb"], {
      cwd: project,
    });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`--include data/secrets: it leads to ${outside}, outside the module's folder`);
  }, 120_000);

  it("replaces only its own output: never a source file given as --out", async () => {
    const source = readFileSync(join(project, "src/server.ts"), "utf8");
    const bundle = await mcpkit(["bundle", "src/server.ts", "--out", "src/server.ts"], { cwd: project });
    expect(bundle.code).toBe(2);
    expect(bundle.stderr).toContain(
      `${join(project, "src/server.ts")} is there and is not an MCP Bundle: mcpkit bundle replaces only its own output`,
    );
    const json = await mcpkit(["bundle", "src/server.ts", "--server-json", "--out", "src/server.ts"], { cwd: project });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("is there and is not a server.json");
    expect(readFileSync(join(project, "src/server.ts"), "utf8")).toBe(source);
  }, 60_000);

  it("names the bundle's file with nothing of package.json that climbs out of the folder", async () => {
    const evil = join(space.dir, "evil/deep");
    mkdirSync(evil, { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(evil, "node_modules"));
    writeFileSync(join(evil, "package.json"), '{ "name": "evil", "version": "1.0.0/../../../escaped" }\n');
    copyFileSync(join(FIXTURES, "env-server.mjs"), join(evil, "server.mjs"));
    const run = await mcpkit(["bundle", "server.mjs"], { cwd: evil, timeout: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Wrote evil-1.0.0-..-..-..-escaped.mcpb");
    // What the module prints as it loads (read once for its userConfig) goes to stderr.
    expect(run.stdout).not.toContain("a line a module logs as it loads");
    expect(run.stderr).toContain("a line a module logs as it loads");
    expect(existsSync(join(evil, "evil-1.0.0-..-..-..-escaped.mcpb"))).toBe(true);
  }, 60_000);

  it("writes no archive entry that could land outside the folder it is unpacked into", () => {
    const data = new Uint8Array([1]);
    expect(zip([{ path: "server/index.js", data }]).length).toBeGreaterThan(0);
    for (const path of ["../evil.js", "server/../../evil.js", "/etc/cron.d/x", "C:/x", "server\\..\\x", "a//b", ""])
      expect(() => zip([{ path, data }]), path).toThrow("cannot name a file in an archive");
  });
});

describe("mcpkit bundle BUILT-IN", () => {
  it("bundles a built-in server with its flags as settings, and it runs from the unpacked bundle", async () => {
    const run = await mcpkit(["bundle", "weather", "--out", "weather.mcpb"], { cwd: space.dir, timeout: 60_000 });
    expect(run.stdout).toContain("Wrote weather.mcpb");
    const dir = join(space.dir, "weather");
    const manifest = await unpack(join(space.dir, "weather.mcpb"), dir);
    expect(manifest).toMatchObject({
      name: "mcpkit-weather",
      tools: [{ name: "get_current_weather" }, { name: "get_forecast" }],
      user_config: { provider: { type: "string", default: "offline" }, units: { type: "string", default: "metric" } },
    });
    const args = (manifest.server as { mcp_config: { args: string[] } }).mcp_config.args;
    expect(args.slice(1)).toEqual(["--provider", "${user_config.provider}", "--units", "${user_config.units}"]);
    const client = await startUnpacked(dir, manifest, ["--provider", "offline", "--units", "imperial"], {});
    try {
      const result = await client.callTool("get_current_weather", { city: "Paris" });
      expect(JSON.stringify(result.content)).toMatch(/°F/);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe("mcpkit bundle --server-json", () => {
  const schema = JSON.parse(readFileSync(join(FIXTURES, "registry/server.schema.json"), "utf8"));
  const validate = (() => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    return ajv.compile(schema);
  })();

  it("writes a server.json the registry's schema accepts: the npm package, the bundle, the remote", async () => {
    const run = await mcpkit(
      [
        "bundle",
        "src/server.ts",
        "--include",
        "motto.txt",
        "--server-json",
        "--remote",
        "https://notes.example.com/mcp",
        "--mcpb-url",
        "https://github.com/example/notes/releases/download/v2.1.0/notes-2.1.0.mcpb",
      ],
      { cwd: project, timeout: 60_000 },
    );
    expect(run.stderr).toBe("");
    const json = JSON.parse(readFileSync(join(project, "server.json"), "utf8"));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const sha = (await import("node:crypto"))
      .createHash("sha256")
      .update(readFileSync(join(project, "notes-2.1.0.mcpb")))
      .digest("hex");
    expect(json).toEqual({
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      name: "io.github.example/notes",
      description: "Keeps notes close",
      version: "2.1.0",
      repository: { url: "https://github.com/example/notes", source: "github" },
      packages: [
        {
          registryType: "npm",
          identifier: "@example/notes",
          version: "2.1.0",
          transport: { type: "stdio" },
          environmentVariables: [
            { name: "NOTES_DIR", description: "Where the notes are kept", isRequired: true, format: "filepath" },
            { name: "NOTES_KEY", description: "A key the server needs", isSecret: true },
          ],
        },
        {
          registryType: "mcpb",
          identifier: "https://github.com/example/notes/releases/download/v2.1.0/notes-2.1.0.mcpb",
          fileSha256: sha,
          transport: { type: "stdio" },
          environmentVariables: expect.any(Array),
        },
      ],
      remotes: [{ type: "streamable-http", url: "https://notes.example.com/mcp" }],
    });
  }, 120_000);

  it("--transport http: the npm package serves Streamable HTTP on the port in $PORT, as the HTTP templates do", async () => {
    const out = join(space.dir, "http-server.json");
    const run = await mcpkit(["bundle", "src/server.ts", "--server-json", "--transport", "http", "--out", out], {
      cwd: project,
      timeout: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(readFileSync(out, "utf8"));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const [npm] = json.packages;
    expect(npm.transport).toEqual({ type: "streamable-http", url: "http://localhost:{PORT}/mcp" });
    // The url's variable is one the package declares, as the registry resolves it.
    expect(npm.environmentVariables[0]).toMatchObject({ name: "PORT", default: "3000" });
    expect(
      (await mcpkit(["bundle", "src/server.ts", "--server-json", "--transport", "sse"], { cwd: project })).stderr,
    ).toContain('--transport takes stdio or http, not "sse"');
  }, 120_000);

  it("is checked for real: the schema refuses what the registry would", () => {
    const good = { name: "io.github.example/notes", description: "Keeps notes", version: "1.0.0" };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, name: "notes" })).toBe(false);
    expect(validate({ ...good, description: "x".repeat(101) })).toBe(false);
    expect(
      validate({
        ...good,
        packages: [{ registryType: "npm", identifier: "x", version: "latest", transport: { type: "stdio" } }],
      }),
    ).toBe(false);
  });

  it("asks for the registry name when package.json has no mcpName", async () => {
    const bare = join(space.dir, "bare");
    mkdirSync(bare);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(bare, "node_modules"));
    writeFileSync(join(bare, "package.json"), '{ "name": "bare", "version": "1.0.0" }\n');
    copyFileSync(join(FIXTURES, "env-server.mjs"), join(bare, "server.mjs"));
    const run = await mcpkit(["bundle", "server.mjs", "--server-json"], { cwd: bare });
    expect(run.code).toBe(2);
    // What it needs first, in steps, with a name to start from.
    expect(run.stderr).toContain(
      [
        "mcpkit: server.json needs the server's name in the MCP Registry first:",
        '  1. add "mcpName": "io.github.YOUR-GITHUB-NAME/bare" to package.json',
      ].join("\n"),
    );
    const named = await mcpkit(["bundle", "server.mjs", "--server-json", "--mcp-name", "io.github.me/bare"], {
      cwd: bare,
    });
    expect(named.code).toBe(0);
    expect(named.stderr).toContain(
      'warning: add "mcpName": "io.github.me/bare" to package.json before npm publish: the registry checks the npm package for it',
    );
    expect(validate(JSON.parse(readFileSync(join(bare, "server.json"), "utf8")))).toBe(true);
  }, 60_000);
});
