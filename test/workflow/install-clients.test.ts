// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold ${workspaceFolder} as text, which is under test
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { requireBuild } from "../cli-call/helpers.js";
import { CLI_BIN, FIXTURES, homeEnv, mcpkit, REPO_ROOT, type Run, scratch } from "./helpers.js";

// `mcpkit install` for each client beyond the first four, into the file and format its
// documentation names; and a project's entry that works on a teammate's machine: the project
// copied elsewhere, its server started from the entry as the client would.

let space: ReturnType<typeof scratch>;
let home = "";
let project = "";
const install = (args: string[], cwd = project): Promise<Run> =>
  mcpkit(["install", ...args], { cwd, env: { ...homeEnv(home), CODEX_HOME: "" } });
const read = (file: string) => readFileSync(file, "utf8");

beforeEach(() => {
  requireBuild();
  space = scratch("install-clients");
  home = join(space.dir, "home");
  project = join(space.dir, "project");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(project, "package.json"), '{ "name": "tools", "version": "1.0.0", "type": "module" }\n');
  writeFileSync(join(project, "dist.js"), "");
});
afterEach(() => space.remove());

const URL = "https://docs.example/mcp";

describe("mcpkit install for each client, in its own file and format", () => {
  it("Windsurf: ~/.codeium/windsurf/mcp_config.json, serverUrl for a URL", async () => {
    expect((await install(["windsurf", "docs", "-H", "X-Team: a", "--", URL])).code).toBe(0);
    expect((await install(["windsurf", "local", "--", "node", "dist.js"])).code).toBe(0);
    expect(JSON.parse(read(join(home, ".codeium/windsurf/mcp_config.json")))).toEqual({
      mcpServers: {
        docs: { serverUrl: URL, headers: { "X-Team": "a" } },
        local: { command: "node", args: [join(project, "dist.js")] },
      },
    });
  });

  it("Cline: its settings in VS Code's global storage; a URL through mcpkit serve proxy", async () => {
    expect((await install(["cline", "docs", "--", URL])).code).toBe(0);
    const file = join(home, ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json");
    expect(JSON.parse(read(file)).mcpServers.docs).toEqual({
      command: process.execPath,
      args: [CLI_BIN, "serve", "proxy", URL],
    });
  });

  it("Gemini CLI: .gemini/settings.json here, httpUrl for a URL, paths relative to the project", async () => {
    expect((await install(["gemini", "docs", "--", URL])).code).toBe(0);
    expect((await install(["gemini", "local", "--", "node", "dist.js"])).code).toBe(0);
    expect(JSON.parse(read(join(project, ".gemini/settings.json")))).toEqual({
      mcpServers: { docs: { httpUrl: URL }, local: { command: "node", args: ["dist.js"] } },
    });
    expect((await install(["gemini", "docs", "--scope", "user", "--", URL])).code).toBe(0);
    expect(JSON.parse(read(join(home, ".gemini/settings.json"))).mcpServers.docs).toEqual({ httpUrl: URL });
  });

  it("Zed: context_servers in its settings (comments kept), a custom command", async () => {
    mkdirSync(join(home, ".config/zed"), { recursive: true });
    writeFileSync(join(home, ".config/zed/settings.json"), '// Zed settings\n{\n  "theme": "One Dark",\n}\n');
    expect((await install(["zed", "local", "--", "node", "dist.js"])).code).toBe(0);
    const text = read(join(home, ".config/zed/settings.json"));
    expect(text).toContain("// Zed settings");
    expect(text).toContain('"theme": "One Dark"');
    expect(text).toContain('"context_servers": {\n    "local": {\n      "source": "custom",');
  });

  it("Codex CLI: a [mcp_servers.NAME] table in ~/.codex/config.toml, its comments and settings kept", async () => {
    mkdirSync(join(home, ".codex"));
    const file = join(home, ".codex/config.toml");
    writeFileSync(file, '# mine\nmodel = "o3"\n\n[mcp_servers.old]\ncommand = "old"\n');
    const added = await install(["codex", "local", "-e", "REGION=eu", "--", "node", "dist.js"]);
    expect(added.code, added.stderr).toBe(0);
    expect((await install(["codex", "docs", "-H", "X-Team: a", "--", URL])).code).toBe(0);
    expect(read(file)).toMatch(/^# mine\nmodel = "o3"\n\n\[mcp_servers\.old\]\ncommand = "old"\n/);
    expect(parseToml(read(file))).toEqual({
      model: "o3",
      mcp_servers: {
        old: { command: "old" },
        local: { command: "node", args: [join(project, "dist.js")], env: { REGION: "eu" } },
        docs: { url: URL, http_headers: { "X-Team": "a" } },
      },
    });
    // Replaced in place with --force; refused without.
    expect((await install(["codex", "old", "--", "node", "dist.js"])).code).toBe(2);
    expect((await install(["codex", "old", "--force", "--", "node", "dist.js"])).code).toBe(0);
    expect(parseToml(read(file)).mcp_servers).toMatchObject({ old: { command: "node" } });
    expect(read(`${file}.bak`)).toContain('[mcp_servers.old]\ncommand = "old"');
  });

  it("Goose: an extension in ~/.config/goose/config.yaml, comments kept", async () => {
    mkdirSync(join(home, ".config/goose"), { recursive: true });
    const file = join(home, ".config/goose/config.yaml");
    writeFileSync(file, "# goose\nGOOSE_MODE: smart_approve\n");
    expect((await install(["goose", "local", "--", "node", "dist.js"])).code).toBe(0);
    expect(read(file)).toContain("# goose\n");
    expect(parseYaml(read(file))).toEqual({
      GOOSE_MODE: "smart_approve",
      extensions: {
        local: {
          name: "local",
          type: "stdio",
          enabled: true,
          cmd: "node",
          args: [join(project, "dist.js")],
          envs: {},
          env_keys: [],
          timeout: 300,
        },
      },
    });
  });

  it("Continue: a block file of its own in .continue/mcpServers, or the user's config.yaml", async () => {
    expect((await install(["continue", "docs", "--", URL])).code).toBe(0);
    expect(parseYaml(read(join(project, ".continue/mcpServers/docs.yaml")))).toEqual({
      name: "docs",
      version: "0.0.1",
      schema: "v1",
      mcpServers: [{ name: "docs", type: "streamable-http", url: URL }],
    });
    expect((await install(["continue", "local", "--scope", "user", "--", "node", "dist.js"])).code).toBe(0);
    expect(parseYaml(read(join(home, ".continue/config.yaml")))).toEqual({
      name: "Local Config",
      version: "1.0.0",
      schema: "v1",
      mcpServers: [{ name: "local", type: "stdio", command: "node", args: [join(project, "dist.js")] }],
    });
  });

  it("refuses a scope the client has not", async () => {
    const run = await install(["goose", "x", "--scope", "project", "--", URL]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Goose has no per-project configuration: use --scope user");
  });
});

describe("a project's entry on a teammate's machine", () => {
  /** The project with its own mcpkit installed, as npm would (this repository's node_modules). */
  function withOwnMcpkit(): void {
    symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"));
    cpSync(join(FIXTURES, "env-server.mjs"), join(project, "src/server.mjs"));
    writeFileSync(join(project, ".env"), "GREETING=hello from the env file\n");
  }

  /** The project copied to another folder, as a clone on another machine: its entry is called there. */
  async function callInClone(args: string[]): Promise<Run> {
    const clone = join(space.dir, "teammate/tools");
    cpSync(project, clone, { recursive: true, verbatimSymlinks: true });
    return mcpkit(["call", ...args], { cwd: clone, env: homeEnv(join(space.dir, "teammate")) });
  }

  it("Claude Code's .mcp.json names the project's files and its own mcpkit, and runs from a copy elsewhere", async () => {
    withOwnMcpkit();
    const run = await install(["claude-code", "envy", "--env-file", ".env", "--", "./src/server.mjs"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    expect(JSON.parse(read(join(project, ".mcp.json"))).mcpServers.envy).toEqual({
      type: "stdio",
      command: "node",
      args: ["--env-file=.env", "node_modules/.bin/mcpkit", "serve", "src/server.mjs", "--stdio"],
    });
    expect(read(join(project, ".mcp.json"))).not.toContain(space.dir);
    const called = await callInClone(["envy", "greeting"]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain("hello from the env file");
  });

  it("VS Code's .vscode/mcp.json names them with ${workspaceFolder}, and its envFile", async () => {
    withOwnMcpkit();
    expect((await install(["vscode", "envy", "--env-file", ".env", "--", "./src/server.mjs"])).code).toBe(0);
    expect(JSON.parse(read(join(project, ".vscode/mcp.json"))).servers.envy).toEqual({
      type: "stdio",
      command: "${workspaceFolder}/node_modules/.bin/mcpkit",
      args: ["serve", "${workspaceFolder}/src/server.mjs", "--stdio"],
      envFile: "${workspaceFolder}/.env",
    });
    const called = await callInClone(["envy", "greeting"]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain("hello from the env file");
  });

  it("--npx writes npx -y @mcpkit/cli, nothing of this machine", async () => {
    withOwnMcpkit();
    expect((await install(["claude-code", "envy", "--npx", "--", "./src/server.mjs"])).code).toBe(0);
    const entry = JSON.parse(read(join(project, ".mcp.json"))).mcpServers.envy;
    expect(entry.command).toBe("npx");
    expect(entry.args.slice(0, 2)).toEqual(["-y", expect.stringMatching(/^@mcpkit\/cli@\d/)]);
    expect(entry.args.slice(2)).toEqual(["serve", "src/server.mjs", "--stdio"]);
    expect(existsSync(join(project, ".mcp.json.bak"))).toBe(false);
  });
});
