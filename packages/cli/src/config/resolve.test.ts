// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold ${VAR} as text, which is under test
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Place } from "./locations.js";
import { configFiles, findServer, listServers } from "./resolve.js";

// Where mcpkit finds the servers a user has named, in the order docs/workflow.md gives:
// each test builds a home and a project in a temporary folder, on every platform's layout.

let dir = "";
let place: Place;
const write = (path: string, value: unknown) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), typeof value === "string" ? value : JSON.stringify(value));
};
const stdio = (command: string, args: string[] = []) => ({ command, args });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-config-"));
  mkdirSync(join(dir, "home"));
  mkdirSync(join(dir, "work/app/src"), { recursive: true });
  place = { cwd: join(dir, "work/app/src"), home: join(dir, "home"), platform: "linux", env: {} };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the files read, and their order", () => {
  it("reads the project's files from here up to the root, nearest first, then the user's", () => {
    const files = configFiles({ place }).map((f) => f.path);
    const at = (path: string) => files.indexOf(join(dir, path));
    expect(at("work/app/src/.mcp.json")).toBe(0);
    expect(at("work/app/src/mcp.json")).toBe(1);
    expect(at("work/app/src/.vscode/mcp.json")).toBe(2);
    expect(at("work/app/src/.cursor/mcp.json")).toBe(3);
    expect(at("work/app/.mcp.json")).toBe(4);
    expect(files.slice(-4)).toEqual([
      join(dir, "home/.claude.json"),
      join(dir, "home/.config/Claude/claude_desktop_config.json"),
      join(dir, "home/.cursor/mcp.json"),
      join(dir, "home/.config/Code/User/mcp.json"),
    ]);
  });

  it("reads a user's file once, as the user's, when the project is in the home folder", () => {
    // ~/.cursor/mcp.json is on the way up from a project under home: Cursor's user file.
    const files = configFiles({ place: { ...place, home: join(dir, "work") } });
    const cursor = files.filter((f) => f.path === join(dir, "work/.cursor/mcp.json"));
    expect(cursor).toEqual([{ client: "cursor", path: join(dir, "work/.cursor/mcp.json"), key: "mcpServers" }]);
    // A project's own .cursor/mcp.json is still the project's.
    expect(files.find((f) => f.path === join(dir, "work/app/.cursor/mcp.json"))?.project).toBe(join(dir, "work/app"));
  });

  it("finds Claude Desktop's and VS Code's files where each platform keeps them", () => {
    const userFiles = (p: Partial<Place>) => configFiles({ place: { ...place, ...p } }).slice(-4);
    expect(userFiles({ platform: "darwin" })[1]?.path).toBe(
      join(dir, "home/Library/Application Support/Claude/claude_desktop_config.json"),
    );
    expect(userFiles({ platform: "win32", env: { APPDATA: join(dir, "AppData") } })[3]?.path).toBe(
      join(dir, "AppData/Code/User/mcp.json"),
    );
    expect(userFiles({ env: { XDG_CONFIG_HOME: join(dir, "xdg") } })[1]?.path).toBe(
      join(dir, "xdg/Claude/claude_desktop_config.json"),
    );
  });

  it("uses the first file that names a server, and marks the others as shadowed", () => {
    write("work/app/.mcp.json", { mcpServers: { notes: stdio("project-notes") } });
    write("home/.config/Claude/claude_desktop_config.json", {
      mcpServers: { notes: stdio("desktop-notes"), mail: stdio("mail") },
    });
    const { servers } = listServers({ place });
    expect(servers.map((s) => [s.name, s.file.client, s.shadowed])).toEqual([
      ["notes", "claude-code", false],
      ["notes", "claude-desktop", true],
      ["mail", "claude-desktop", false],
    ]);
    expect(findServer("notes", { place }).spec).toMatchObject({ command: "project-notes" });
    // A user's file belongs to no project: its servers start wherever mcpkit runs.
    expect(findServer("mail", { place }).spec).not.toHaveProperty("cwd");
  });

  it("reads VS Code's `servers` with comments and trailing commas", () => {
    write(
      "work/app/.vscode/mcp.json",
      `{
  // the docs server
  "servers": {
    "docs": { "type": "http", "url": "https://example.com/mcp", /* a comment */ },
  },
  "inputs": [],
}`,
    );
    expect(findServer("docs", { place }).spec).toEqual({
      transport: "http",
      url: "https://example.com/mcp",
      headers: {},
    });
  });

  it("reads Claude Code's servers for this project in ~/.claude.json before its user scope", () => {
    write("home/.claude.json", {
      mcpServers: { db: stdio("user-db") },
      projects: { [join(dir, "work/app")]: { mcpServers: { db: stdio("local-db") } }, "/elsewhere": {} },
    });
    expect(findServer("db", { place }).spec).toMatchObject({ command: "local-db" });
  });

  it("reads only the --config file, and says so when it cannot", () => {
    write("work/app/.mcp.json", { mcpServers: { a: stdio("a") } });
    write("other.json", { servers: { b: stdio("b") } });
    expect(listServers({ place, config: join(dir, "other.json") }).servers.map((s) => s.name)).toEqual(["b"]);
    expect(() => listServers({ place, config: join(dir, "missing.json") })).toThrow(
      /--config .*missing.json cannot be read: ENOENT/,
    );
  });

  it("names the files it read and the servers they hold when a name is not found", () => {
    write("work/app/.mcp.json", { mcpServers: { alpha: stdio("a"), beta: stdio("b") } });
    write("home/.cursor/mcp.json", "{ not json");
    expect(() => findServer("gamma", { place })).toThrow(
      new RegExp(
        `No server named "gamma" in ${join(dir, "work/app/.mcp.json")}\\. Servers named there: alpha, beta\\. ` +
          `Not read: ${join(dir, "home/.cursor/mcp.json")}: not valid JSON`,
      ),
    );
  });
});

describe("an entry, read as a client reads it", () => {
  it("starts a project's stdio server in the project's folder, with its variables", () => {
    write("work/app/.mcp.json", { mcpServers: { app: { command: "node", args: ["dist/main.js"], env: { A: "1" } } } });
    expect(findServer("app", { place }).spec).toEqual({
      transport: "stdio",
      command: "node",
      args: ["dist/main.js"],
      env: { A: "1" },
      cwd: join(dir, "work/app"),
    });
  });

  it("expands ${VAR}, ${VAR:-default}, ${env:VAR}, ${workspaceFolder} and ${userHome}", () => {
    place.env = { TOKEN: "t0k", HOST: "example.com" };
    write("work/app/.mcp.json", {
      mcpServers: {
        api: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${env:TOKEN}" } },
        local: { command: "${workspaceFolder}/bin/x", args: ["${userHome}", "${PORT:-3000}"] },
      },
    });
    expect(findServer("api", { place }).spec).toEqual({
      transport: "http",
      url: "https://example.com/mcp",
      headers: { Authorization: "Bearer t0k" },
    });
    expect(findServer("local", { place }).spec).toMatchObject({
      command: join(dir, "work/app/bin/x"),
      args: [join(dir, "home"), "3000"],
    });
  });

  it("refuses an unset variable, a VS Code input and an entry without command or url, saying which", () => {
    write("work/app/.mcp.json", {
      mcpServers: {
        unset: { command: "${MISSING}" },
        input: { type: "http", url: "https://x/mcp", headers: { key: "${input:apiKey}" } },
        empty: { args: [] },
        odd: { type: "carrier-pigeon", url: "https://x" },
      },
    });
    expect(() => findServer("unset", { place })).toThrow(
      /"unset" .* cannot be used: \$\{MISSING\} refers to MISSING, which is not set/,
    );
    expect(() => findServer("input", { place })).toThrow(/only VS Code can prompt for/);
    expect(() => findServer("empty", { place })).toThrow(/needs a "command" \(or a "url"\)/);
    expect(() => findServer("odd", { place })).toThrow(/"carrier-pigeon" is not a transport/);
  });

  it("reads Cursor's url-only entries as HTTP, and VS Code's envFile", () => {
    write("work/app/.env", "# keys\nexport KEY='from-file'\nOTHER=2\n");
    write("work/app/.cursor/mcp.json", {
      mcpServers: {
        remote: { url: "https://cursor.example/mcp" },
        filed: { command: "x", envFile: "${workspaceFolder}/.env", env: { OTHER: "3" } },
      },
    });
    expect(findServer("remote", { place }).spec).toMatchObject({
      transport: "http",
      url: "https://cursor.example/mcp",
    });
    expect(findServer("filed", { place }).spec).toMatchObject({ env: { KEY: "from-file", OTHER: "3" } });
  });
});
