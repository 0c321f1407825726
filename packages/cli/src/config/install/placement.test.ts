// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${workspaceFolder} is the clients' syntax, under test
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type InstallClient, installFile, type Scope } from "../install-target.js";
import type { ServerSpec } from "../server-spec.js";
import { placeSpec } from "./placement.js";

// The command a client's file gets: a project's portable to a teammate's clone, a user's
// absolute and said so; env files read by VS Code or by Node.

let space = "";
let project = "";
const BIN = "/opt/mcpkit/bin/mcpkit.js";
const mcpkit = [process.execPath, BIN];
beforeEach(() => {
  space = mkdtempSync(join(tmpdir(), "mcpkit-placement-"));
  project = join(space, "project");
  mkdirSync(join(project, "src"), { recursive: true });
});
afterEach(() => rmSync(space, { recursive: true, force: true }));

const target = (client: InstallClient, scope: Scope) =>
  installFile(client, scope, { cwd: project, home: join(space, "home"), platform: "linux", env: {} });
const served = (module: string): ServerSpec => ({
  transport: "stdio",
  command: process.execPath,
  args: [BIN, "serve", module, "--stdio"],
  env: {},
});
/** The project's own mcpkit, as npm installs it. */
const installMcpkit = () => {
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  mkdirSync(join(project, "node_modules/@mcpkit/cli/bin"), { recursive: true });
  writeFileSync(join(project, "node_modules/@mcpkit/cli/bin/mcpkit.js"), "#!/usr/bin/env node\n");
  symlinkSync("../@mcpkit/cli/bin/mcpkit.js", join(project, "node_modules/.bin/mcpkit"));
};

describe("placeSpec in a project's file", () => {
  it("Claude Code: paths relative to the project and the project's own mcpkit", () => {
    installMcpkit();
    const placed = placeSpec(served(join(project, "src/server.ts")), target("claude-code", "project"), { mcpkit });
    expect(placed.spec).toEqual({
      transport: "stdio",
      command: "node_modules/.bin/mcpkit",
      args: ["serve", "src/server.ts", "--stdio"],
      env: {},
    });
    expect(placed.notes).toEqual([]);
  });

  it("VS Code and Cursor: ${workspaceFolder}", () => {
    installMcpkit();
    for (const client of ["vscode", "cursor"] as const) {
      const placed = placeSpec(served(join(project, "src/server.ts")), target(client, "project"), { mcpkit });
      expect(placed.spec).toMatchObject({
        command: "${workspaceFolder}/node_modules/.bin/mcpkit",
        args: ["serve", "${workspaceFolder}/src/server.ts", "--stdio"],
      });
    }
  });

  it("says so when the project has no mcpkit of its own, or a path lies outside it", () => {
    const outside = join(space, "elsewhere/server.js");
    const placed = placeSpec(served(outside), target("claude-code", "project"), { mcpkit });
    expect(placed.spec).toMatchObject({ command: process.execPath, args: [BIN, "serve", outside, "--stdio"] });
    expect(placed.notes[0]).toContain("mcpkit is not installed in this project (npm install --save-dev @mcpkit/cli)");
    expect(placed.notes[1]).toBe(
      `${process.execPath}, ${BIN}, ${outside} are outside the project: written as this machine's path`,
    );
  });

  it("a command in the project's own folder keeps a ./ (else the PATH is searched)", () => {
    const spec: ServerSpec = { transport: "stdio", command: join(project, "run.sh"), args: [project], env: {} };
    expect(placeSpec(spec, target("gemini", "project"), { mcpkit }).spec).toMatchObject({
      command: "./run.sh",
      args: ["."],
    });
  });
});

describe("placeSpec in a user's file", () => {
  it("keeps paths absolute, and says so", () => {
    const placed = placeSpec(served(join(project, "src/server.ts")), target("cursor", "user"), { mcpkit });
    expect(placed.spec).toMatchObject({
      command: process.execPath,
      args: [BIN, "serve", join(project, "src/server.ts"), "--stdio"],
    });
    expect(placed.notes).toEqual([
      "a user's file has no working folder: its paths are written absolute, as on this machine",
    ]);
  });

  it("reaches a URL through mcpkit serve proxy for a client that takes commands only", () => {
    const spec: ServerSpec = {
      transport: "http",
      url: "https://x.example/mcp",
      headers: { Authorization: "Bearer t" },
    };
    for (const client of ["claude-desktop", "cline", "zed"] as const)
      expect(placeSpec(spec, target(client, "user"), { mcpkit }).spec).toEqual({
        transport: "stdio",
        command: process.execPath,
        args: [BIN, "serve", "proxy", "https://x.example/mcp", "--header", "Authorization: Bearer t"],
        env: {},
      });
    expect(placeSpec(spec, target("windsurf", "user"), { mcpkit }).spec).toBe(spec);
  });
});

describe("placeSpec with --env-file", () => {
  const envFile = () => {
    writeFileSync(join(project, ".env"), "KEY=1\n");
    return join(project, ".env");
  };

  it("VS Code reads it itself", () => {
    const placed = placeSpec(served(join(project, "src/server.ts")), target("vscode", "project"), {
      mcpkit,
      envFile: envFile(),
    });
    expect(placed.envFile).toBe("${workspaceFolder}/.env");
  });

  it("Node reads it for mcpkit and node: before the script", () => {
    installMcpkit();
    const file = envFile();
    expect(
      placeSpec(served(join(project, "src/server.ts")), target("claude-code", "project"), { mcpkit, envFile: file })
        .spec,
    ).toMatchObject({
      command: "node",
      args: ["--env-file=.env", "node_modules/.bin/mcpkit", "serve", "src/server.ts", "--stdio"],
    });
    const node: ServerSpec = { transport: "stdio", command: "node", args: [join(project, "dist/main.js")], env: {} };
    expect(placeSpec(node, target("windsurf", "user"), { mcpkit, envFile: file }).spec).toMatchObject({
      command: "node",
      args: [`--env-file=${file}`, join(project, "dist/main.js")],
    });
  });

  it("refuses a command Node does not start, and a URL", () => {
    const python: ServerSpec = { transport: "stdio", command: "python", args: ["server.py"], env: {} };
    expect(() => placeSpec(python, target("claude-code", "project"), { mcpkit, envFile: envFile() })).toThrow(
      "--env-file is read by VS Code itself, or by Node for a server Node starts",
    );
    const url: ServerSpec = { transport: "http", url: "https://x.example/mcp", headers: {} };
    expect(() => placeSpec(url, target("cursor", "user"), { mcpkit, envFile: envFile() })).toThrow(
      "--env-file is for a server started by a command, not a URL",
    );
  });
});
