import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, REPO_ROOT } from "../../packages/mcpkit/test/stdio/helpers.js";
import { requireBuild } from "../cli-call/helpers.js";
import { loadedModules, packagesOf, RECORD_IMPORTS } from "../loaded-modules.js";

// The command line as a person mistypes it: every usage error exits 2 with a message that
// says what is wrong, before any server starts; and `--version` loads no command.

const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...args], {
      env: { ...process.env, NO_COLOR: "1", ...env },
      timeout: 15_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
};
const mcpkit = (...args: string[]) => run([CLI_BIN, ...args]);

let dir = "";
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-usage-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mcpkit serve: usage errors exit 2 and say what is wrong", () => {
  it.each([
    [["serve", "--port", "notaport"], '--port takes a port number from 0 to 65535 (0: any free port), not "notaport"'],
    [["serve", "--port", "70000"], 'not "70000"'],
    [["serve", "--port", "-1"], 'not "-1"'],
    [["serve", "nope"], 'Unknown server "nope"; choose one of everything, workspace'],
    [["serve", "everything", "--db", "x.sqlite"], "--db applies to the workspace server only"],
    [["serve", "proxy"], "serve proxy needs the server to front"],
    [["serve", "everything", "extra"], 'serve everything takes no further arguments (got "extra")'],
    [["serve", "proxy", "http://127.0.0.1:1/mcp", "more"], "serve proxy takes one URL"],
    [["serve", "proxy", "--header", "A: b", "--", "node", "x.js"], "--header is for a proxied HTTP server"],
    [["serve", "proxy", "--header", "nocolon", "http://127.0.0.1:1/mcp"], '--header takes "Name: value"'],
    [["serve", "everything", "--header", "A: b"], "--header applies to the proxy and openapi servers only"],
    [["serve", "weather", "--allow-write"], "--allow-write applies to the workspace and github servers only"],
    [["serve", "--max-read-bytes", "lots"], '--max-read-bytes must be a positive whole number, not "lots"'],
    [["serve", "--jwks-url", "http://127.0.0.1:1/jwks"], "Authorization applies to HTTP: add --port"],
    [["serve", "--max-sessions", "10"], "--max-sessions applies to Streamable HTTP only: add --port"],
    [["serve", "--port", "0", "--max-sessions", "0"], '--max-sessions must be a positive whole number, not "0"'],
    [["serve", "--port", "0", "--idle-timeout", "soon"], 'a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"'],
    [
      ["serve", "weather", "--provider-timeout", "soon"],
      "--provider-timeout takes a duration such as 5000 (milliseconds)",
    ],
    [
      ["serve", "weather", "--cache-ttl", "-1"],
      '--cache-ttl takes a duration such as 90 (seconds), 90s, 15m or 2h, not "-1"',
    ],
    [
      ["serve", "openapi", "x.yaml", "--base-url", "http://127.0.0.1:1", "--api-timeout", "0"],
      "--api-timeout takes a duration",
    ],
    [["serve", "--trust-proxy", "127.0.0.1"], "--trust-proxy applies to HTTP only: add --port"],
    [["serve", "--port", "0", "--trust-proxy", "nginx"], '--trust-proxy: "nginx" is neither an IP address'],
    [["serve", "--bogus"], "unknown option '--bogus'"],
    [["serve", "--port"], "option '--port <port>' argument missing"],
    [["serv"], "unknown command 'serv'"],
    [["serve", "everything", "--redis", "redis://127.0.0.1:1"], "--redis needs --port"],
    [
      ["serve", "everything", "--port", "0", "--redis", "redis://127.0.0.1:1"],
      "--redis needs --state-key or MCPKIT_STATE_KEY",
    ],
    [
      ["serve", "everything", "--port", "0", "--redis", "redis://127.0.0.1:1", "--state-key", "short"],
      "--state-key (or MCPKIT_STATE_KEY) must be at least 32 bytes",
    ],
    [
      ["serve", "proxy", "--port", "0", "--redis", "redis://127.0.0.1:1", "http://127.0.0.1:1/mcp"],
      "serve proxy cannot run as a node of a cluster (--redis): a proxy holds its connections",
    ],
    [
      ["serve", "workspace", "--port", "0", "--redis", "redis://127.0.0.1:1", "--allow-write"],
      "serve workspace --redis --allow-write needs --db: each node would write its own sample database",
    ],
  ])("mcpkit %j", async (args, message) => {
    const result = await mcpkit(...args);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain("NaN");
    expect(result.code).toBe(2);
  });
});

describe("mcpkit serve github --redis", () => {
  it("refuses the server's own GitHub sign-in, which one node would hold, and says what works instead", async () => {
    const result = await run([CLI_BIN, "serve", "github", "--port", "0", "--redis", "redis://127.0.0.1:1"], {
      GITHUB_OAUTH_CLIENT_ID: "id",
      GITHUB_OAUTH_CLIENT_SECRET: "secret",
    });
    expect(result.stderr).toContain("serve github --redis cannot use its own GitHub sign-in");
    expect(result.stderr).toContain("--authorization-server github");
    expect(result.code).toBe(2);
  });
});

/** What running `node ARGS…` loaded (mcpkit's bundles as their source modules: test/loaded-modules.ts). */
async function loads(
  args: string[],
  name: string,
): Promise<{ result: Awaited<ReturnType<typeof run>>; modules: string[] }> {
  const log = join(dir, `${name}.log`);
  rmSync(log, { force: true });
  const result = await run(["--import", RECORD_IMPORTS, ...args], { IMPORT_LOG: log });
  return { result, modules: loadedModules(readFileSync(log, "utf8")) };
}

describe("mcpkit --version", () => {
  it.each(["--version", "-v", "-V"])(
    "%s prints the CLI's version and the Node.js it runs on, and loads nothing else, not even commander",
    async (flag) => {
      const { result, modules } = await loads([CLI_BIN, flag], "version");
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8"));
      expect(result).toMatchObject({ code: 0, stdout: `${manifest.version} (Node.js ${process.version})\n` });
      expect(modules).toEqual([
        "packages/cli/bin/mcpkit.js",
        "packages/cli/dist/main.js",
        "packages/cli/dist/version.js",
      ]);
    },
  );

  it("the same recording sees a command load when one runs (the check above can fail)", async () => {
    const { result, modules } = await loads([CLI_BIN, "serve", "--port", "x"], "serve-usage");
    expect(result.code).toBe(2);
    expect(modules).toContain("packages/cli/dist/commands/serve/index.js");
    expect(modules).toContain("node_modules/commander/index.js");
  });
});

describe("mcpkit --help", () => {
  it.each(["--help", "-h", "help", ""])("mcpkit %s describes every command and loads none of them", async (word) => {
    const { result, modules } = await loads([CLI_BIN, ...(word ? [word] : [])], "help");
    for (const command of [
      "serve",
      "call",
      "inspect",
      "doctor",
      "lint",
      "servers",
      "install",
      "dev",
      "bundle",
      "completion",
    ])
      expect(result.stdout + result.stderr).toContain(`\n  ${command} `);
    expect(modules.filter((m) => /\/commands\/[^/]+\//.test(m))).toEqual([]);
    expect(modules.filter((m) => m.includes("packages/mcpkit/"))).toEqual([]);
  });
});

describe("mcpkit call loads what the command needs", () => {
  /** mcpkit's client, OAuth, and the transports of a connection (not the transport contract every side loads). */
  const CLIENT_SIDE = /^packages\/mcpkit\/src\/(client|auth|transports\/(stdio|streamable-http|sse-legacy))\//;

  it("its help loads neither the client nor its transports", async () => {
    const { result, modules } = await loads([CLI_BIN, "call", "--help"], "call-help");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: mcpkit call");
    expect(modules).toContain("packages/cli/dist/commands/call/index.js");
    expect(modules).not.toContain("packages/cli/dist/commands/call/run.js");
    expect(modules.filter((m) => CLIENT_SIDE.test(m))).toEqual([]);
  });

  it("a call over stdio loads no OAuth and no HTTP client, and its server no HTTP endpoint", async () => {
    const serverLog = join(dir, "call-server-imports.log");
    const server = ["-e", `NODE_OPTIONS=--import ${RECORD_IMPORTS}`, "-e", `IMPORT_LOG=${serverLog}`];
    const call = ["call", ...server, "echo", "text=hi", "--", process.execPath, CLI_BIN, "serve", "everything"];
    const { result, modules: client } = await loads([CLI_BIN, ...call], "call-client");
    expect(result).toMatchObject({ code: 0, stdout: "hi\n" });
    expect(client).toContain("packages/mcpkit/src/client/client.ts");
    expect(client).toContain("packages/mcpkit/src/transports/stdio/client-transport.ts");
    expect(client.filter((m) => m.startsWith("packages/mcpkit/src/auth/"))).toEqual([]);
    expect(client.filter((m) => m.startsWith("packages/mcpkit/src/transports/streamable-http/"))).toEqual([]);
    expect(packagesOf(client)).not.toContain("jose");
    const served = loadedModules(readFileSync(serverLog, "utf8"));
    expect(served).toContain("packages/cli/dist/commands/serve/stdio.js");
    expect(served).not.toContain("packages/cli/dist/commands/serve/http.js");
    expect(served.filter((m) => m.startsWith("packages/mcpkit/src/endpoints/"))).toEqual([]);
  });
});

describe("mcpkit serve NAME", () => {
  it("loads the flags of the server it runs, none of the others'", async () => {
    const { result, modules } = await loads([CLI_BIN, "serve", "everything", "--port", "x"], "serve-flags");
    expect(result.code).toBe(2);
    expect(modules).toContain("packages/cli/dist/built-in/everything.js");
    expect(modules).toContain("packages/servers/dist/everything/options.js");
    for (const other of ["workspace", "weather", "github", "proxy", "openapi"])
      expect(
        modules.filter((m) => m.includes(`/built-in/${other}.js`) || m.includes(`/servers/dist/${other}/`)),
      ).toEqual([]);
  });
});
