// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold ${env:NAME} as text, which is under test
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
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
/** Exit 0, and on stderr only the notes given. */
const ok = (run: Run, ...notes: string[]) => {
  expect(run.stderr).toBe(notes.map((note) => `mcpkit install: note: ${note}\n`).join(""));
  expect(run.code).toBe(0);
  return run;
};
/** What a user's file is told: it has no working folder, so its paths are this machine's. */
const ABSOLUTE = "a user's file has no working folder: its paths are written absolute, as on this machine";

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
    const run = ok(await install(["claude-desktop", "--", "node", "dist/main.js", "--verbose"]), ABSOLUTE);
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
    ok(await install(["claude-desktop", "-e", "GREETING=hi", "--", "workspace", "--root", "."]), ABSOLUTE);
    expect(json(desktopFile())).toEqual({
      theme: "dark",
      mcpServers: {
        mine: { command: "mine" },
        workspace: {
          command: process.execPath,
          args: [CLI_BIN, "serve", "workspace", "--stdio", "--root", project],
          env: { GREETING: "hi" },
        },
      },
    });
    expect(readFileSync(`${desktopFile()}.bak`, "utf8")).toBe(before);
    const again = ok(await install(["claude-desktop", "-e", "GREETING=hi", "--", "workspace", "--root", "."]));
    expect(again.stdout).toContain('already has "workspace" as given: nothing to change');
  });

  it("--dry-run prints the change as a diff and writes nothing", async () => {
    const run = ok(await install(["claude-desktop", "notes", "--dry-run", "--", "node", "dist/main.js"]), ABSOLUTE);
    expect(run.stdout).toContain(`Would add "notes" in ${desktopFile()}:`);
    expect(run.stdout).toContain("+++ b/claude_desktop_config.json");
    expect(run.stdout).toContain('+    "notes": {');
    expect(existsSync(desktopFile())).toBe(false);
  });

  it("reaches a server at a URL through mcpkit serve proxy, headers and all", async () => {
    const run = await install([
      "claude-desktop",
      "remote",
      "-H",
      "Authorization: Bearer x",
      "--",
      "https://example.com/mcp",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("note: Authorization is written as given");
    expect(json(desktopFile()).mcpServers.remote).toEqual({
      command: process.execPath,
      args: [CLI_BIN, "serve", "proxy", "https://example.com/mcp", "--header", "Authorization: Bearer x"],
    });
  });

  it("installs the user's own module, served by mcpkit serve", async () => {
    ok(await install(["claude-desktop", "envy", "--", join(FIXTURES, "env-server.mjs")]), ABSOLUTE);
    expect(json(desktopFile()).mcpServers.envy).toEqual({
      command: process.execPath,
      args: [CLI_BIN, "serve", join(FIXTURES, "env-server.mjs"), "--stdio"],
    });
  });
});

describe("mcpkit install for the other clients", () => {
  it("writes Claude Code's .mcp.json and VS Code's .vscode/mcp.json in the project, Cursor's in the home", async () => {
    // A project's file: paths relative to the project, where Claude Code starts its servers.
    ok(await install(["claude-code", "--", "node", "dist/main.js"]));
    expect(json(join(project, ".mcp.json")).mcpServers["notes-app"]).toEqual({
      type: "stdio",
      command: "node",
      args: ["dist/main.js"],
    });
    ok(await install(["vscode", "docs", "--", "https://docs.example/mcp"]));
    expect(json(join(project, ".vscode/mcp.json"))).toEqual({
      servers: { docs: { type: "http", url: "https://docs.example/mcp" } },
    });
    ok(await install(["cursor", "docs", "--", "https://docs.example/mcp"]));
    expect(json(join(home, ".cursor/mcp.json"))).toEqual({ mcpServers: { docs: { url: "https://docs.example/mcp" } } });
  });
});

describe("mcpkit install: the file it writes, and what it leaves alone", () => {
  const vscodeFile = () => join(project, ".vscode/mcp.json");

  it("edits a file with comments, trailing commas, a byte order mark and CRLF line endings in place", async () => {
    mkdirSync(join(project, ".vscode"));
    const before =
      '\uFEFF{\r\n  // mine\r\n  "servers": {\r\n    "old": { "url": "https://old.example/mcp" }, /* kept */\r\n  },\r\n}\r\n';
    writeFileSync(vscodeFile(), before);
    ok(await install(["vscode", "docs", "--", "https://docs.example/mcp"]));
    expect(readFileSync(vscodeFile(), "utf8")).toBe(
      '\uFEFF{\r\n  // mine\r\n  "servers": {\r\n    "old": { "url": "https://old.example/mcp" },\r\n' +
        '    "docs": {\r\n      "type": "http",\r\n      "url": "https://docs.example/mcp"\r\n    }, /* kept */\r\n  },\r\n}\r\n',
    );
    expect(readFileSync(`${vscodeFile()}.bak`, "utf8")).toBe(before);
  });

  it("refuses a file that is not JSON, saying where, and writes nothing", async () => {
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "a" }\n    "b": { "command": "b" }\n  }\n}\n';
    writeFileSync(join(project, ".mcp.json"), broken);
    const run = await install(["claude-code", "new", "--", "node", "dist/main.js"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Cannot add "new" to ${join(project, ".mcp.json")}: line 4, column 5: a "," (or the closing bracket) was expected. Nothing was written`,
    );
    expect(readFileSync(join(project, ".mcp.json"), "utf8")).toBe(broken);
    expect(existsSync(join(project, ".mcp.json.bak"))).toBe(false);
  });

  it("refuses to replace a server of the same name unless --force, which --dry-run says", async () => {
    ok(await install(["claude-code", "app", "--", "node", "dist/main.js"]));
    const refused = await install(["claude-code", "app", "--", "node", "dist/main.js", "--other"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${join(project, ".mcp.json")} already has a server named "app" (`);
    expect(refused.stderr).toContain("pass --force to replace it, or give another name");
    const dry = ok(await install(["claude-code", "app", "--dry-run", "--", "node", "dist/main.js", "--other"]));
    expect(dry.stdout).toContain('Would replace "app"');
    expect(dry.stdout).toContain("Without --force nothing would be written");
    expect(json(join(project, ".mcp.json")).mcpServers.app.args).toEqual(["dist/main.js"]);
    ok(await install(["claude-code", "app", "--force", "--", "node", "dist/main.js", "--other"]));
    expect(json(join(project, ".mcp.json")).mcpServers.app.args).toEqual(["dist/main.js", "--other"]);
  });

  it("edits no project file that links out of the project without --follow-links, and keeps the backup beside the file edited", async () => {
    // A cloned repository's .mcp.json planted as a link to the user's own ~/.claude.json.
    const claude = join(home, ".claude.json");
    const secret = '{ "oauthAccount": { "token": "sk-ant-secret" }, "mcpServers": {} }\n';
    writeFileSync(claude, secret);
    symlinkSync(claude, join(project, ".mcp.json"));
    const refused = await install(["claude-code", "--", "node", "dist/main.js"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${join(project, ".mcp.json")} leads to ${claude}, outside this project (${project}): a cloned repository can plant such a link`,
    );
    expect(refused.stderr).toContain("pass --follow-links if you made the link yourself");
    expect(readFileSync(claude, "utf8")).toBe(secret);
    expect(readdirSync(project).sort()).toEqual([".mcp.json", "dist", "package.json"]);

    // Said so, it is edited where it is; the file as it was is kept there, never in the project.
    const run = ok(await install(["claude-code", "--follow-links", "--", "node", "dist/main.js"]));
    expect(run.stdout).toContain(`(a link: written to ${claude}; the file as it was: ${claude}.bak)`);
    expect(lstatSync(join(project, ".mcp.json")).isSymbolicLink()).toBe(true);
    expect(Object.keys(json(claude).mcpServers)).toEqual(["notes-app"]);
    expect(readFileSync(`${claude}.bak`, "utf8")).toBe(secret);
    expect(readdirSync(project).sort()).toEqual([".mcp.json", "dist", "package.json"]);
  });

  it("treats a linked folder on the way as a link: .vscode -> a folder outside the project", async () => {
    mkdirSync(join(home, "elsewhere"));
    symlinkSync(join(home, "elsewhere"), join(project, ".vscode"));
    const refused = await install(["vscode", "docs", "--", "https://docs.example/mcp"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`leads to ${join(home, "elsewhere/mcp.json")}, outside this project`);
    expect(existsSync(join(home, "elsewhere/mcp.json"))).toBe(false);
  });

  it("writes through a link inside the project, and a user's file that links to a dotfiles folder, keeping the links", async () => {
    mkdirSync(join(project, "config"));
    writeFileSync(join(project, "config/mcp.json"), '{ "mcpServers": {} }\n');
    symlinkSync("config/mcp.json", join(project, ".mcp.json"));
    const inside = ok(await install(["claude-code", "--", "node", "dist/main.js"]));
    expect(inside.stdout).toContain(
      `(a link: written to ${join(project, "config/mcp.json")}; the file as it was: ${join(project, "config/mcp.json")}.bak)`,
    );
    expect(lstatSync(join(project, ".mcp.json")).isSymbolicLink()).toBe(true);
    expect(Object.keys(json(join(project, "config/mcp.json")).mcpServers)).toEqual(["notes-app"]);

    mkdirSync(join(home, "dotfiles"));
    writeFileSync(join(home, "dotfiles/cursor.json"), '{ "mcpServers": {} }\n');
    mkdirSync(join(home, ".cursor"));
    symlinkSync(join(home, "dotfiles/cursor.json"), join(home, ".cursor/mcp.json"));
    const user = ok(await install(["cursor", "docs", "--", "https://docs.example/mcp"]));
    expect(user.stdout).toContain(
      `(a link: written to ${join(home, "dotfiles/cursor.json")}; the file as it was: ${join(home, "dotfiles/cursor.json")}.bak)`,
    );
    expect(lstatSync(join(home, ".cursor/mcp.json")).isSymbolicLink()).toBe(true);
  });

  it("keeps the file's permissions, leaves no temporary file, and never writes the backup through a link", async () => {
    const file = join(project, ".mcp.json");
    writeFileSync(file, '{ "mcpServers": {} }\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    // A link planted where the backup goes (a cloned repository could hold one) is replaced, not followed.
    writeFileSync(join(home, ".bashrc"), "mine\n");
    symlinkSync(join(home, ".bashrc"), `${file}.bak`);
    ok(await install(["claude-code", "--", "node", "dist/main.js"]));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.bak`).mode & 0o777).toBe(0o600);
    expect(lstatSync(`${file}.bak`).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("mine\n");
    expect(readdirSync(project).sort()).toEqual([".mcp.json", ".mcp.json.bak", "dist", "package.json"]);
  });

  it("refuses a file made read-only, and a folder where the file goes", async () => {
    const file = join(project, ".mcp.json");
    writeFileSync(file, "{}\n");
    chmodSync(file, 0o444);
    const readOnly = await install(["claude-code", "--", "node", "dist/main.js"]);
    expect(readOnly).toMatchObject({
      code: 1,
      stderr: `mcpkit: ${file} is read-only: make it writable to have it changed\n`,
    });
    expect(readFileSync(file, "utf8")).toBe("{}\n");
    mkdirSync(join(home, ".cursor/mcp.json"), { recursive: true });
    const folder = await install(["cursor", "docs", "--", "https://docs.example/mcp"]);
    expect(folder).toMatchObject({ code: 2, stderr: `mcpkit: ${join(home, ".cursor/mcp.json")} is not a file\n` });
  });

  it("writes names and arguments with quotes, spaces and shell characters as JSON strings, and a name like __proto__", async () => {
    const words = ["a b.js", "$(touch pwned)", "it's", '"quoted"', "|&;<>`x`"];
    ok(await install(["claude-code", 'my "server"; rm -rf ~', "--", "node", ...words]));
    ok(await install(["claude-code", "__proto__", "--", "node", "x.js"]));
    const servers = json(join(project, ".mcp.json")).mcpServers;
    expect(servers['my "server"; rm -rf ~'].args).toEqual(words);
    expect(Object.getOwnPropertyNames(servers)).toContain("__proto__");
    expect(existsSync(join(project, "pwned"))).toBe(false);
  });

  it("says when a secret given with -e or -H is written in clear, and makes a new file holding one its owner's alone", async () => {
    const run = await install([
      "claude-desktop",
      "-e",
      "API_KEY=sk-123",
      "-e",
      "REGION=eu",
      "--",
      "node",
      "dist/main.js",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `mcpkit install: note: API_KEY is written as given into ${desktopFile()}, for anyone who can read the file.`,
    );
    expect(run.stderr).not.toContain("REGION");
    expect(statSync(desktopFile()).mode & 0o777).toBe(0o600);
    const vscode = await install([
      "vscode",
      "docs",
      "-H",
      "Authorization: Bearer abc",
      "--",
      "https://docs.example/mcp",
    ]);
    expect(vscode.stderr).toContain("It is this project's file: keep it out of version control.");
    expect(vscode.stderr).toContain("such as ${env:NAME}");
    // A reference to a variable holds no secret.
    const referred = await install([
      "cursor",
      "docs",
      "-H",
      "Authorization: Bearer ${env:DOCS_TOKEN}",
      "--",
      "https://docs.example/mcp",
    ]);
    expect(referred.stderr).toBe("");
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
    [["claude-code", "", "--", "node", "x.js"], "A server's name cannot be empty"],
    [["claude-code", "a\nb", "--", "node", "x.js"], '"a\\nb" cannot name a server: it holds a control character'],
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
