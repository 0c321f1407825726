import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, MCPKIT_BIN } from "../interop/helpers.js";
import { notesEntry, textOf } from "./helpers.js";
import { type GatewayProcess, startGatewayProcess } from "./process.js";

// `mcpkit gateway` as a person runs it: a configuration it refuses says where and why, a
// file others may write is refused (it names the commands the gateway runs), /healthz
// tells why an upstream failed only to callers on this machine.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});
beforeAll(() => assertBuilt());

function configFile(config: object | string, mode = 0o600) {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-cli-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "team.mcp.json");
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  chmodSync(path, mode);
  return path;
}

// Bounded: a gateway that starts serving instead of refusing fails the test rather than hanging it.
const run = (args: string[]) =>
  spawnSync(process.execPath, [MCPKIT_BIN, "gateway", ...args], { encoding: "utf8", timeout: 20_000 });

async function gatewayOf(path: string, args: string[] = []): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(path, args);
  closers.push(() => gateway.stop());
  return gateway;
}

describe("mcpkit gateway", () => {
  it("refuses a configuration with its mistakes, each with line and column", () => {
    const path = configFile(`{
  "mcpServers": { "notes": { "command": "x" } },
  "gateway": { "sepparator": "." }
}`);
    const result = run(["--config", path, "--port", "0"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `${path}:3:16: gateway.sepparator: is not a setting here: did you mean "separator"?`,
    );
  });

  it("says a --config that does not exist, or is a folder, in words a person can act on", () => {
    const missing = run(["--config", join(tmpdir(), "mcpkit-no-such-team.mcp.json")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(
      /mcpkit-no-such-team\.mcp\.json does not exist: give the path of your team's \.mcp\.json/,
    );
    expect(missing.stderr).not.toContain("ENOENT");
    const folder = run(["--config", tmpdir()]);
    expect(folder.status).toBe(2);
    expect(folder.stderr).toMatch(/is a folder: give the configuration file in it/);
  });

  it("refuses a configuration file, or an env file, that others may write", () => {
    const path = configFile({ mcpServers: { notes: notesEntry("notes") } }, 0o666);
    const result = run(["--config", path, "--port", "0"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /can be written by anyone on this machine, and it names the commands the gateway runs/,
    );

    const withEnv = configFile({ mcpServers: { notes: { ...notesEntry("notes"), envFile: "notes.env" } } });
    const envFile = join(withEnv, "..", "notes.env");
    writeFileSync(envFile, "A=1\n");
    chmodSync(envFile, 0o620);
    const refused = run(["--config", withEnv, "--port", "0"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /notes\.env can be written by its group, and it names the environment a command runs in/,
    );
  });

  it("refuses a reload of the file once others may write it, and goes on serving", async () => {
    const path = configFile({ mcpServers: { notes: notesEntry("notes") } });
    const gateway = await gatewayOf(path);
    const from = gateway.log().length;
    writeFileSync(path, JSON.stringify({ mcpServers: { notes: notesEntry("notes"), more: notesEntry("more") } }));
    chmodSync(path, 0o664);
    await gateway.printed(
      /changed but cannot be used; the last good configuration serves:\n.*can be written by its group/,
      from,
    );
    const client = new Client({ name: "t", version: "1" });
    await client.connect(streamableHttpClientTransport(gateway.url));
    closers.push(() => client.close());
    expect((await client.tools()).map((t) => t.name)).not.toContain("more_list_notes");
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
  });

  it("answers /healthz, telling why an upstream failed only to callers on this machine", async () => {
    const path = configFile({
      mcpServers: { notes: notesEntry("notes"), broken: { command: "/nonexistent/mcp-server" } },
      gateway: { startTimeoutMs: 5000 },
    });
    const gateway = await gatewayOf(path, ["--trust-proxy", "127.0.0.1"]);
    const healthz = `http://127.0.0.1:${gateway.port}/healthz`;
    const before = (await (await fetch(healthz)).json()) as { upstreams: { state: string }[] };
    expect(before.upstreams.map((u) => u.state)).toEqual(["idle", "idle"]);

    const client = new Client({ name: "t", version: "1" });
    await client.connect(streamableHttpClientTransport(gateway.url));
    closers.push(() => client.close());
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");

    const local = await fetch(healthz);
    expect(local.headers.get("content-type")).toBe("application/json");
    const report = (await local.json()) as { status: string; upstreams: Record<string, unknown>[] };
    expect(report.status).toBe("degraded");
    expect(report.upstreams.find((u) => u.name === "notes")).toMatchObject({ state: "ready", restarts: 0 });
    const broken = report.upstreams.find((u) => u.name === "broken");
    expect(broken).toMatchObject({ state: "restarting", transport: "stdio" });
    expect(broken?.lastError).toMatch(/could not start: .*no such file/);

    // A caller elsewhere (as the trusted proxy forwards it) learns the states, not the reasons.
    const remote = (await (await fetch(healthz, { headers: { "x-forwarded-for": "203.0.113.7" } })).json()) as {
      upstreams: Record<string, unknown>[];
    };
    expect(remote.upstreams.find((u) => u.name === "broken")).toMatchObject({ state: "restarting" });
    expect(JSON.stringify(remote)).not.toMatch(/lastError|nonexistent/);
    expect((await fetch(healthz, { method: "POST" })).status).toBe(405);
  });

  it("does not serve /healthz when the configuration says so", async () => {
    const gateway = await gatewayOf(
      configFile({ mcpServers: { notes: notesEntry("notes") }, gateway: { health: false } }),
    );
    expect((await fetch(`http://127.0.0.1:${gateway.port}/healthz`)).status).toBe(404);
  });
});
