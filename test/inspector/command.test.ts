import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CLI_BIN, mcpkit, REPO_ROOT, requireBuild, start, stopAll, until } from "../cli-call/helpers.js";
import { inspectorApi } from "./api.js";
import { openBrowser } from "./browser.js";

// `mcpkit inspect` as a person types it: what it prints, what it refuses, and what it loads.

const dir = mkdtempSync(join(tmpdir(), "mcpkit-inspect-"));
afterEach(stopAll);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mcpkit inspect", () => {
  it("prints the URL with a one-time token on stdout, and what it inspects on stderr", async () => {
    requireBuild();
    const running = start(["inspect", "--port", "0", "http://127.0.0.1:9/mcp"]);
    await until(() => /\?token=/.test(running.stdout), 10_000, "the URL");
    expect(running.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}\n$/);
    expect(running.stderr).toContain("mcpkit inspect: inspecting http://127.0.0.1:9/mcp");
    running.child.kill("SIGTERM");
    expect((await running.done).code).toBe(0);
  });

  it("--open puts no token on a command line, which every user of the machine can read: the browser gets a page only this user can read", async () => {
    requireBuild();
    // xdg-open as the system has it, but writing down what it was asked to open.
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const log = join(dir, "xdg-open.log");
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(log)}\n`, { mode: 0o755 });
    const child = spawn(process.execPath, [CLI_BIN, "inspect", "--open", "http://127.0.0.1:9/mcp"], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    await until(() => existsSync(log) && readFileSync(log, "utf8").endsWith("\n"), 10_000, "xdg-open to be run");
    const argv = readFileSync(log, "utf8").trim().split("\n");
    const token = /\?token=([\w-]+)/.exec(stdout)?.[1] as string;
    expect(token).toBeDefined();
    expect(argv.join(" ")).not.toContain(token);
    // A page of this user's alone, which sends the browser to the inspector.
    const [page] = argv as [string];
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
    const browser = await openBrowser();
    try {
      const tab = await browser.context.newPage();
      await tab.goto(pathToFileURL(page).href);
      const origin = /^(http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)?.[1] as string;
      await tab.waitForURL(`${origin}/`);
      await tab.getByTestId("status").waitFor();
    } finally {
      await browser.close();
    }
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("close", resolve));
    // Gone with the inspector.
    expect(existsSync(page)).toBe(false);
  });

  it.each([
    [
      [],
      "Name a server: a URL (http://…/mcp), after -- the command that starts it, or a name from your MCP configuration",
    ],
    [["my-server"], '"my-server" is not a URL; to start a server over stdio, put its command after --'],
    [["--protocol", "2019-01-01", "http://127.0.0.1:9/mcp"], "--protocol takes auto, legacy, modern or a revision"],
    [["--port", "70000", "http://127.0.0.1:9/mcp"], "--port takes a port number, not 70000"],
    [
      ["--ping-interval", "soon", "http://127.0.0.1:9/mcp"],
      '--ping-interval takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"',
    ],
    [["-H", "Authorization: x", "--", "node", "server.js"], "--header is for HTTP servers"],
    [["http://127.0.0.1:9/mcp", "--", "node"], "Give either a server before -- or a command after it"],
  ])("mcpkit inspect %j is a usage error", async (args, message) => {
    const result = await mcpkit(["inspect", ...args]);
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });

  it("offers the folder the server starts in as its root, or the --root folders instead", async () => {
    requireBuild();
    // The workspace server narrows its files to the roots a client offers: it is usable as it comes.
    const workspace = ["--", process.execPath, CLI_BIN, "serve", "workspace", "--stdio"];
    for (const [flags, folder] of [
      [[], resolve(REPO_ROOT)],
      [["--root", "docs"], resolve(REPO_ROOT, "docs")],
    ] as const) {
      const running = start(["inspect", ...flags, ...workspace]);
      await until(() => /\?token=/.test(running.stdout), 10_000, "the URL");
      const api = await inspectorApi(running.stdout.trim());
      await api.state("connected");
      const { result } = await api.call<{ result: { structuredContent?: unknown } }>("tools/call", {
        name: "list_allowed_directories",
      });
      expect(result.structuredContent).toEqual({ directories: [folder] });
      api.close();
      running.child.kill("SIGTERM");
      await running.done;
    }
  }, 60_000);

  it("is loaded only when it runs: --version and the other commands load none of it", () => {
    const hook = join(REPO_ROOT, "test/cli/fixtures/record-imports.mjs");
    const imports = (args: string[]) => {
      const log = join(dir, `imports-${args[0]}.log`);
      spawnSync(process.execPath, ["--import", hook, CLI_BIN, ...args], {
        env: { ...process.env, IMPORT_LOG: log },
        encoding: "utf8",
        timeout: 10_000,
      });
      // Paths from the repository's root: the checkout's own folder may be called anything (inspector, say).
      return readFileSync(log, "utf8").replaceAll(resolve(REPO_ROOT), "");
    };
    const version = imports(["--version"]);
    expect(version).toContain("/packages/cli/dist/main.js");
    expect(version).not.toContain("/commands/inspect/");
    expect(version).not.toContain("/inspector/");
    const serve = imports(["serve", "--port", "x"]);
    expect(serve).toContain("/commands/serve/");
    expect(serve).not.toContain("/commands/inspect/");
    expect(serve).not.toContain("/inspector/");
    // Its help describes it without loading the inspector itself.
    const help = imports(["inspect", "--help"]);
    expect(help).toContain("/commands/inspect/index.js");
    expect(help).not.toContain("/inspector/");
  });
});
