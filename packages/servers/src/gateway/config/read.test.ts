import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GatewayConfigError } from "./problems.js";
import { readGatewayConfig } from "./read.js";

const dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "team.mcp.json");

const read = (text: string, env: Record<string, string> = {}) =>
  readGatewayConfig(text, { file, env, home: "/home/x" });

/** The problems a text has, as "line:column path: message". */
function problemsOf(text: string, env: Record<string, string> = {}): string[] {
  try {
    read(text, env);
  } catch (error) {
    if (!(error instanceof GatewayConfigError)) throw error;
    return error.problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`);
  }
  throw new Error("the configuration was accepted");
}

describe("reading a gateway configuration", () => {
  it("reads a client's .mcp.json with comments and trailing commas, and its gateway section", () => {
    writeFileSync(join(dir, "files.env"), "# for files\nROOT=/srv\nexport MODE='ro'\n");
    const config = read(
      `{
  // the team's servers
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "files-server", "\${ROOT}"], "envFile": "files.env", "env": { "LEVEL": "\${LEVEL:-info}" } },
    "issues": { "url": "https://issues.example.com/mcp", "headers": { "X-Team": "\${TEAM}" } },
    "old": { "command": "old-server", "disabled": true },
  },
  "gateway": {
    "separator": ".",
    "audit": "logs/audit.jsonl",
    "redact": ["Customer-Id"],
    "servers": {
      "files": { "tools": { "deny": ["write_*"], "rename": { "read_file": "read" } }, "perSession": true },
      "issues": { "token": { "provider": "github" } },
    },
    "policy": [{ "when": { "groups": ["eng"] }, "allow": ["files", "issues/search_*"] }],
    "rateLimit": { "perSecond": 5 },
    "virtualServers": { "/triage": { "tools": ["issues.search_*"] } },
  },
}`,
      { ROOT: "/data", TEAM: "blue" },
    );
    expect(config.upstreams.map((u) => u.name)).toEqual(["files", "issues"]);
    const [files, issues] = config.upstreams;
    expect(files?.target).toEqual({
      transport: "stdio",
      command: "npx",
      args: ["-y", "files-server", "/data"],
      env: { ROOT: "/srv", MODE: "ro", LEVEL: "info" },
      cwd: dir,
    });
    expect(files?.tools).toEqual({ deny: ["write_*"], rename: { read_file: "read" }, describe: {} });
    expect(files?.perSession).toBe(true);
    expect(issues?.target).toEqual({
      transport: "http",
      url: "https://issues.example.com/mcp",
      headers: { "X-Team": "blue" },
    });
    expect(issues?.token).toEqual({ provider: "github", header: "Authorization", scheme: "Bearer" });
    expect(config.separator).toBe(".");
    expect(config.audit).toEqual({ file: join(dir, "logs", "audit.jsonl"), arguments: "digest" });
    expect(config.redact).toEqual(["customerid"]);
    expect(config.policy).toEqual([{ when: { groups: ["eng"] }, allow: ["files", "issues/search_*"], deny: [] }]);
    expect(config.rateLimit).toEqual({ perSecond: 5 });
    expect(config.virtualServers).toEqual([
      { path: "/triage", tools: ["issues.search_*"], prompts: [], resources: false },
    ]);
    expect(config.maxUpstreams).toBe(16);
    expect(config.health).toBe(true);
  });

  it("has no policy unless one is given (everyone may use everything)", () => {
    const config = read(`{ "mcpServers": { "a": { "command": "a" } } }`);
    expect(config.policy).toBeUndefined();
    expect(read(`{ "mcpServers": { "a": { "command": "a" } }, "gateway": { "policy": [] } }`).policy).toEqual([]);
  });

  it("says where a syntax mistake is", () => {
    expect(problemsOf(`{\n  "mcpServers": {\n    "a": { "command": "a" }\n    "b": {}\n  }\n}`)).toEqual([
      '4:5 : a "," (or the closing bracket) was expected',
    ]);
  });

  it("names a misspelt key where it is, with the key it probably meant", () => {
    expect(
      problemsOf(`{
  "mcpServers": { "a": { "command": "a" } },
  "gateway": {
    "servers": { "a": { "tools": { "alow": ["x"] } } }
  }
}`),
    ).toEqual(['4:36 gateway.servers.a.tools.alow: is not a setting here: did you mean "allow"?']);
  });

  it("lists every mistake at once: types, bounds, values not among those allowed", () => {
    expect(
      problemsOf(`{
  "mcpServers": { "a": { "command": "a", "args": "x" } },
  "gateway": {
    "separator": 3,
    "auditArguments": "all",
    "maxUpstreams": 0,
    "rateLimit": { "burst": 2 }
  }
}`),
    ).toEqual([
      '2:50 mcpServers.a.args: must be a list of strings, not the string "x"',
      "4:18 gateway.separator: must be a string, not the number 3",
      '5:23 gateway.auditArguments: must be one of "digest", "redacted"',
      "6:21 gateway.maxUpstreams: must be at least 1",
      '7:18 gateway.rateLimit: needs "perSecond" (calls a second, on average)',
    ]);
  });

  it("refuses a key given twice, in a map as in an object (JSON would keep one of them, silently)", () => {
    expect(
      problemsOf(`{
  "mcpServers": { "a": { "command": "a" }, "a": { "command": "b" } },
  "gateway": {
    "virtualServers": { "/t": { "tools": ["a_x"] }, "/t": { "tools": ["a_y"] } },
    "servers": { "a": { "tools": { "rename": { "x": "y", "x": "z" } } } }
  }
}`),
    ).toEqual([
      "2:44 mcpServers.a: is given twice",
      "4:53 gateway.virtualServers./t: is given twice",
      "5:58 gateway.servers.a.tools.rename.x: is given twice",
    ]);
  });

  it("refuses settings for a server that is not there, and a policy naming one", () => {
    expect(
      problemsOf(`{
  "mcpServers": { "files": { "command": "f" } },
  "gateway": {
    "servers": { "flies": { "perSession": true } },
    "policy": [{ "allow": ["files/read", "isues"] }]
  }
}`),
    ).toEqual([
      "4:18 gateway.servers.flies: names no server of mcpServers (files)",
      "5:42 gateway.policy[0].allow[1]: names no server of mcpServers (files)",
    ]);
  });

  it("refuses names that clash or do not fit, suggesting what to do", () => {
    const problems = problemsOf(`{
  "mcpServers": {
    "my db": { "command": "a" },
    "my-db": { "command": "b" },
    "_x": { "command": "c" },
    "long": { "command": "d" }
  },
  "gateway": { "servers": { "long": { "tools": { "rename": { "t": "${"n".repeat(129)}", "u": "a b" } } } } }
}`);
    expect(problems).toEqual([
      '4:5 mcpServers.my-db: serves its tools under "my-db", as "my db" does: rename one of them',
      "5:5 mcpServers._x: a server's name must start with a letter or digit, as its tools' names will: rename it \"x\"",
      expect.stringMatching(
        /^8:67 gateway\.servers\.long\.tools\.rename\.t: "n+" is 129 characters, more than the 128/,
      ),
      expect.stringMatching(
        /^8:\d+ gateway\.servers\.long\.tools\.rename\.u: "a b" holds characters a tool name may not/,
      ),
    ]);
  });

  it("says which variable is missing, where it is used", () => {
    expect(problemsOf(`{ "mcpServers": { "a": { "command": "a", "env": { "T": "\${API_TOKEN}" } } } }`)).toEqual([
      `1:56 mcpServers.a.env.T: \${API_TOKEN} refers to API_TOKEN, which is not set in the gateway's environment`,
    ]);
  });

  it("refuses an env file it cannot read, a URL that is not http, a stdio token without its variable", () => {
    const problems = problemsOf(`{
  "mcpServers": {
    "a": { "command": "a", "envFile": "missing.env" },
    "b": { "url": "ftp://x" },
    "c": { "command": "c" }
  },
  "gateway": { "servers": { "c": { "token": { "provider": "github" } } } }
}`);
    expect(problems).toEqual([
      expect.stringMatching(/^3:39 mcpServers\.a\.envFile: the env file .*missing\.env cannot be read \(ENOENT\)/),
      '4:19 mcpServers.b.url: "ftp://x" is not an http:// or https:// URL',
      '7:45 gateway.servers.c.token: a stdio server gets the token in a variable: add "env" (e.g. "GITHUB_TOKEN")',
    ]);
  });

  it("runs a stdio server given each person's token once per session", () => {
    const config = read(`{
  "mcpServers": { "gh": { "command": "gh-server" } },
  "gateway": { "servers": { "gh": { "token": { "provider": "github", "env": "GITHUB_TOKEN" } } } }
}`);
    expect(config.upstreams[0]?.perSession).toBe(true);
  });

  it("keeps virtual servers off the paths the gateway serves itself", () => {
    expect(
      problemsOf(`{
  "mcpServers": { "a": { "command": "a" } },
  "gateway": { "virtualServers": { "/mcp": { "tools": [] }, "/.well-known/x": { "tools": [] }, "triage": { "tools": [] } } }
}`),
    ).toEqual([
      "3:36 gateway.virtualServers./mcp: /mcp is a path the gateway serves itself: choose another",
      "3:61 gateway.virtualServers./.well-known/x: /.well-known/x is a path the gateway serves itself: choose another",
      '3:96 gateway.virtualServers.triage: a path is "/" and letters, digits, ".", "_", "~", "-" (e.g. "/triage")',
    ]);
    expect(problemsOf(`{ "mcpServers": {}, "gateway": { "virtualServers": { "/ok": {} } } }`)).toEqual([
      '1:61 gateway.virtualServers./ok: needs "tools" (served tool names (`github_search_*`); the policy still decides who sees each)',
    ]);
  });

  it("needs mcpServers (or VS Code's servers)", () => {
    expect(problemsOf(`{ "gateway": {} }`)).toEqual(['1:1 : needs "mcpServers": the upstream servers, by name']);
    expect(read(`{ "servers": { "a": { "type": "http", "url": "http://127.0.0.1:1/mcp" } } }`).upstreams).toHaveLength(
      1,
    );
  });
});
