import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { CLI_BIN, FIXTURES, homeEnv, mcpkit, type Run, scratch } from "./helpers.js";

// `mcpkit install CLIENT [NAME] -- SERVER` as a person runs it, with a home directory of the
// test's own: the client's file is created or merged into, the old one kept as .bak.

let space: ReturnType<typeof scratch>;
let home = "";
let project = "";
const desktopFile = () => join(home, ".config/Claude/claude_desktop_config.json");
const install = (args: string[]) => mcpkit(["install", ...args], { cwd: project, env: homeEnv(home) });
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const ok = (run: Run) => {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run;
};

beforeEach(() => {
  requireBuild();
  space = scratch("install");
  home = join(space.dir, "home");
  project = join(space.dir, "project");
  mkdirSync(join(project, "dist"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(project, "package.json"), '{ "name": "@me/notes-app", "version": "1.0.0" }\n');
  writeFileSync(join(project, "dist/main.js"), "");
});
afterEach(() => space.remove());

describe("mcpkit install claude-desktop", () => {
  it("creates the file with the server, naming it after the package and making its paths absolute", async () => {
    const run = ok(await install(["claude-desktop", "--", "node", "dist/main.js", "--verbose"]));
    expect(run.stdout).toContain(`Added "notes-app" in ${desktopFile()}`);
    expect(json(desktopFile())).toEqual({
      mcpServers: { "notes-app": { command: "node", args: [join(project, "dist/main.js"), "--verbose"] } },
    });
    expect(existsSync(`${desktopFile()}.bak`)).toBe(false); // there was nothing to keep
  });

  it("merges into the file the user has, keeps the old one as .bak, and says when nothing changes", async () => {
    mkdirSync(join(home, ".config/Claude"), { recursive: true });
    const before = `${JSON.stringify({ theme: "dark", mcpServers: { mine: { command: "mine" } } }, null, 2)}\n`;
    writeFileSync(desktopFile(), before);
    ok(await install(["claude-desktop", "-e", "TOKEN=abc", "--", "workspace", "--root", "."]));
    expect(json(desktopFile())).toEqual({
      theme: "dark",
      mcpServers: {
        mine: { command: "mine" },
        workspace: {
          command: process.execPath,
          args: [CLI_BIN, "serve", "workspace", "--stdio", "--root", project],
          env: { TOKEN: "abc" },
        },
      },
    });
    expect(readFileSync(`${desktopFile()}.bak`, "utf8")).toBe(before);
    const again = ok(await install(["claude-desktop", "-e", "TOKEN=abc", "--", "workspace", "--root", "."]));
    expect(again.stdout).toContain('already has "workspace" as given: nothing to change');
  });

  it("--dry-run prints the change as a diff and writes nothing", async () => {
    const run = ok(await install(["claude-desktop", "notes", "--dry-run", "--", "node", "dist/main.js"]));
    expect(run.stdout).toContain(`Would add "notes" in ${desktopFile()}:`);
    expect(run.stdout).toContain("+++ b/claude_desktop_config.json");
    expect(run.stdout).toContain('+    "notes": {');
    expect(existsSync(desktopFile())).toBe(false);
  });

  it("reaches a server at a URL through mcpkit serve proxy, headers and all", async () => {
    ok(await install(["claude-desktop", "remote", "-H", "Authorization: Bearer x", "--", "https://example.com/mcp"]));
    expect(json(desktopFile()).mcpServers.remote).toEqual({
      command: process.execPath,
      args: [CLI_BIN, "serve", "proxy", "https://example.com/mcp", "--header", "Authorization: Bearer x"],
    });
  });

  it("installs the user's own module, served by mcpkit serve", async () => {
    ok(await install(["claude-desktop", "envy", "--", join(FIXTURES, "env-server.mjs")]));
    expect(json(desktopFile()).mcpServers.envy).toEqual({
      command: process.execPath,
      args: [CLI_BIN, "serve", join(FIXTURES, "env-server.mjs"), "--stdio"],
    });
  });
});

describe("mcpkit install for the other clients", () => {
  it("writes Claude Code's .mcp.json and VS Code's .vscode/mcp.json in the project, Cursor's in the home", async () => {
    ok(await install(["claude-code", "--", "node", "dist/main.js"]));
    expect(json(join(project, ".mcp.json")).mcpServers["notes-app"]).toEqual({
      type: "stdio",
      command: "node",
      args: [join(project, "dist/main.js")],
    });
    ok(await install(["vscode", "docs", "--", "https://docs.example/mcp"]));
    expect(json(join(project, ".vscode/mcp.json"))).toEqual({
      servers: { docs: { type: "http", url: "https://docs.example/mcp" } },
    });
    ok(await install(["cursor", "docs", "--", "https://docs.example/mcp"]));
    expect(json(join(home, ".cursor/mcp.json"))).toEqual({ mcpServers: { docs: { url: "https://docs.example/mcp" } } });
  });

  it("refuses a file with comments unless --force, which keeps them in the .bak", async () => {
    mkdirSync(join(project, ".vscode"));
    const commented = '{\n  // mine\n  "servers": {}\n}\n';
    writeFileSync(join(project, ".vscode/mcp.json"), commented);
    const refused = await install(["vscode", "docs", "--", "https://docs.example/mcp"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("has comments, which rewriting it would drop: pass --force");
    ok(await install(["vscode", "docs", "--force", "--", "https://docs.example/mcp"]));
    expect(readFileSync(join(project, ".vscode/mcp.json.bak"), "utf8")).toBe(commented);
  });
});

describe("mcpkit install: mistakes exit 2 and say what is wrong", () => {
  it.each([
    [["nowhere", "--", "x"], 'Unknown client "nowhere": choose one of claude-code, vscode, cursor, claude-desktop'],
    [["claude-desktop"], "Give the server after --"],
    [["claude-desktop", "a", "b", "--", "x"], "One name before --"],
    [["claude-desktop", "--scope", "project", "--", "x"], "Claude Desktop has no per-project configuration"],
    [["cursor", "x", "--", "https://a/mcp", "more"], "A URL takes no further words"],
    [["cursor", "x", "-H", "A: b", "--", "node", "s.js"], "--header is for a server at a URL"],
    [["cursor", "x", "-e", "novalue", "--", "node", "s.js"], '--env takes KEY=VALUE, not "novalue"'],
    [["claude-code", "--", "./src/sever.ts"], "No such module: ./src/sever.ts"],
  ])("mcpkit install %j", async (args, message) => {
    const run = await install(args);
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
  });

  it("asks for a name when neither the server nor the folder gives one", async () => {
    writeFileSync(join(project, "package.json"), "{}\n");
    const run = await install(["cursor", "--", "https://a.example/mcp"]);
    expect(run.stderr).toContain("Name the server: mcpkit install cursor NAME -- https://a.example/mcp");
    expect(run.code).toBe(2);
  });
});
