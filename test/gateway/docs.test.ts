import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { keyPaths, readGatewayConfig } from "@mcpkit/servers/gateway";
import { afterAll, describe, expect, it } from "vitest";

// docs/gateway.md holds to the code: its configuration file reads as the gateway reads it,
// and its reference names every key the schema knows (and none it does not).

const doc = readFileSync(fileURLToPath(new URL("../../docs/gateway.md", import.meta.url)), "utf8");
const dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-doc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/gateway.md", () => {
  it("shows a configuration the gateway reads", () => {
    const block = /```jsonc\n(\{\n {2}"mcpServers"[\s\S]*?)```/.exec(doc)?.[1] as string;
    expect(block).toContain('"gateway"');
    writeFileSync(join(dir, "db.env"), "DATABASE_URL=postgres://x\n");
    chmodSync(join(dir, "db.env"), 0o600);
    const config = readGatewayConfig(block, { file: join(dir, "team.mcp.json"), env: {} });
    expect(config.upstreams.map((u) => u.name)).toEqual(["docs", "github", "tickets"]);
    expect(config.upstreams[2]?.target).toMatchObject({ env: { DATABASE_URL: "postgres://x" } });
    expect(config.virtualServers.map((v) => v.path)).toEqual(["/triage"]);
  });

  it("documents every key of the configuration, and no other", () => {
    const reference = doc.slice(doc.indexOf("## The configuration file"));
    const documented = new Set([...reference.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
    // VS Code's `servers` takes the same keys as mcpServers: documented once.
    const keys = keyPaths().filter((k) => !k.startsWith("servers."));
    for (const key of keys) expect(documented, `docs/gateway.md documents ${key}`).toContain(key);
    for (const key of documented) expect(keys, `${key} is a key of the schema`).toContain(key);
  });
});
