// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold ${VAR} as text, which is under test
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { inspectorApi } from "../inspector/api.js";
import { CLI_BIN, FIXTURES, homeEnv, mcpkit, scratch, startMcpkit, stopAll } from "./helpers.js";

// Servers called by the name a configuration file gives them: `mcpkit call NAME`, and
// `mcpkit servers` listing where each name comes from.

let space: ReturnType<typeof scratch>;
let home = "";
let project = "";
let http: Listening;
const TOKEN = "s3cret-token";

beforeAll(async () => {
  requireBuild();
  space = scratch("named");
  home = join(space.dir, "home");
  // The real path: the server reports process.cwd(), which resolves symbolic links.
  project = join(realpathSync(space.dir), "project");
  mkdirSync(join(project, "src/deep"), { recursive: true });
  mkdirSync(join(home, ".config/Claude"), { recursive: true });
  // An HTTP server that answers only with the right bearer token.
  const guarded = createServer({ name: "guarded", version: "1.0.0" });
  guarded.tool("secret", {}, () => "the vault is open");
  const mcp = createStreamableHttpHandler(guarded);
  http = await listen({
    fetch: (request) =>
      request.headers.get("authorization") === `Bearer ${TOKEN}`
        ? mcp.fetch(request)
        : Promise.resolve(new Response("no", { status: 401 })),
    close: () => mcp.close(),
  });
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        envy: {
          command: process.execPath,
          args: [CLI_BIN, "serve", join(FIXTURES, "env-server.mjs"), "--stdio"],
          env: { GREETING: "${GREETING:-hello from .mcp.json}" },
        },
        vault: { type: "http", url: new URL("/mcp", http.url).href, headers: { Authorization: "Bearer ${TOKEN}" } },
      },
    }),
  );
  writeFileSync(
    join(home, ".config/Claude/claude_desktop_config.json"),
    JSON.stringify({ mcpServers: { envy: { command: "elsewhere" }, desk: { command: "desk", args: ["--x"] } } }),
  );
});
afterAll(async () => {
  await stopAll();
  await http.close();
  space.remove();
});

const inProject = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  mcpkit(args, { cwd: join(project, "src/deep"), env: { ...homeEnv(home), ...env } });

describe("mcpkit call NAME", () => {
  it("starts a server named in the project's .mcp.json, in the project's folder, with its variables", async () => {
    const where = await inProject(["call", "envy", "where"]);
    expect(where).toMatchObject({ code: 0, stdout: `${project}\n` });
    const greeting = await inProject(["call", "envy", "greeting"]);
    expect(greeting.stdout).toBe("hello from .mcp.json\n");
    // The command line's -e wins over the file's.
    expect((await inProject(["call", "-e", "GREETING=from the command line", "envy", "greeting"])).stdout).toBe(
      "from the command line\n",
    );
  }, 60_000);

  it("sends the headers of an HTTP entry, variables expanded", async () => {
    expect(await inProject(["call", "vault", "secret"], { TOKEN })).toMatchObject({
      code: 0,
      stdout: "the vault is open\n",
    });
    // Without the variable the entry cannot be used: said before anything is sent.
    const unset = await inProject(["call", "vault", "secret"], { TOKEN: undefined });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain("${TOKEN} refers to TOKEN, which is not set");
  }, 60_000);

  it("reads only the --config file when given one", async () => {
    const run = await inProject(["call", "--config", join(home, ".config/Claude/claude_desktop_config.json"), "envy"]);
    expect(run.code).toBe(4); // Claude Desktop's "envy" is a command that does not exist
    const missing = await inProject(["call", "--config", join(project, "nope.json"), "envy"]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain("nope.json cannot be read: ENOENT");
  }, 60_000);

  it("says which names it knows when a name is not found", async () => {
    const run = await inProject(["call", "nobody", "tools"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No server named "nobody" in');
    expect(run.stderr).toContain("Servers named there: envy, vault, desk");
  });
});

describe("mcpkit inspect NAME", () => {
  /** `mcpkit inspect ARGS…` in the project's folder, and its API once it printed its URL. */
  async function inspect(args: string[], env: NodeJS.ProcessEnv = {}) {
    const running = startMcpkit(["inspect", ...args], {
      cwd: join(project, "src/deep"),
      env: { ...homeEnv(home), ...env },
    });
    const [url] = await running.waitFor(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m, 20_000, "stdout");
    const api = await inspectorApi(url);
    const text = async (name: string) => {
      const { result } = await api.call<{ result: { content: { text: string }[] } }>("tools/call", { name });
      return result.content[0]?.text;
    };
    return { running, api, text };
  }

  it("starts a server named in the project's .mcp.json in the project's folder, with its variables; -e wins", async () => {
    const { running, api, text } = await inspect(["-e", "GREETING=from the command line", "envy"]);
    const state = await api.state("connected");
    expect(state.target).toMatchObject({ kind: "stdio", command: process.execPath, cwd: project });
    expect(await text("where")).toBe(project);
    expect(await text("greeting")).toBe("from the command line");
    // Reconnecting from the page (another era) keeps the folder and the variables.
    await api.call("connect", { protocol: "legacy" });
    expect(await text("where")).toBe(project);
    expect(await text("greeting")).toBe("from the command line");
    api.close();
    await running.stop();
  }, 60_000);

  it("connects to an HTTP entry with its headers, variables expanded", async () => {
    const { running, api, text } = await inspect(["vault"], { TOKEN });
    await api.state("connected");
    expect(await text("secret")).toBe("the vault is open");
    api.close();
    await running.stop();
  }, 60_000);

  it("reads only the --config file when given one", async () => {
    // Claude Desktop's "envy" is a command that does not exist: the inspector says it could not start it.
    const { running, api } = await inspect([
      "--config",
      join(home, ".config/Claude/claude_desktop_config.json"),
      "envy",
    ]);
    expect(String((await api.state("failed")).error)).toContain("elsewhere");
    api.close();
    await running.stop();
  }, 60_000);

  it("says which names it knows when a name is not found", async () => {
    const run = await inProject(["inspect", "nobody"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"nobody" is not a URL; to start a server over stdio, put its command after --');
    expect(run.stderr).toContain('No server named "nobody" in');
    expect(run.stderr).toContain("Servers named there: envy, vault, desk");
  });
});

describe("mcpkit servers", () => {
  it("lists each file's servers in the order they are read, marking a name a file above took", async () => {
    const run = await inProject(["servers"], { TOKEN: undefined });
    expect(run.code).toBe(0);
    expect((await inProject(["servers"], { TOKEN })).stdout).toMatch(
      /\n {2}vault {2}http {3}http:\/\/127\.0\.0\.1:\d+\/mcp\n/,
    );
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(`${project}/.mcp.json (Claude Code)`);
    expect(lines[1]).toMatch(new RegExp(`^  envy   stdio  ${process.execPath} `));
    // An entry that cannot be used as things stand says why.
    expect(lines[2]).toBe("  vault  cannot be used: ${TOKEN} refers to TOKEN, which is not set");
    expect(lines[4]).toBe("~/.config/Claude/claude_desktop_config.json (Claude Desktop)");
    expect(lines[5]).toBe("  envy   stdio  elsewhere  (a file above names it first)");
    expect(lines[6]).toBe("  desk   stdio  desk --x");
  });

  it("prints JSON and bare names for scripts and shell completion", async () => {
    const listed = JSON.parse((await inProject(["servers", "--json"], { TOKEN })).stdout) as {
      servers: { name: string; shadowed: boolean; spec?: { headers?: Record<string, string> } }[];
    };
    expect(listed.servers.map((s) => [s.name, s.shadowed])).toEqual([
      ["envy", false],
      ["vault", false],
      ["envy", true],
      ["desk", false],
    ]);
    expect(listed.servers[1]?.spec?.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
    expect((await inProject(["servers", "--names"])).stdout).toBe("envy\nvault\ndesk\n");
  });
});
