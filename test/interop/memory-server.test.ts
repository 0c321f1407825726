/**
 * @modelcontextprotocol/server-memory (a knowledge graph kept in a file): directly over
 * stdio and behind `mcpkit serve proxy`, which hands it its file through --env.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServed, mcpkitOverHttp, type Served, serveHttp } from "../serve/helpers.js";
import { THIRD_PARTY } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "mcpkit-memory-interop-"));
const [command, ...args] = THIRD_PARTY.memory as [string, ...string[]];
let direct: Client;
let proxy: Served;

beforeAll(async () => {
  direct = new Client({ name: "memory-direct", version: "1" });
  [, proxy] = await Promise.all([
    direct.connect(
      stdioClientTransport({ command, args, env: { MEMORY_FILE_PATH: join(dir, "direct.jsonl") }, stderr: "ignore" }),
    ),
    serveHttp("proxy", ["--env", `MEMORY_FILE_PATH=${join(dir, "proxied.jsonl")}`, "--", command, ...args]),
  ]);
}, 60_000);

afterAll(async () => {
  await direct?.close();
  await closeServed();
  rmSync(dir, { recursive: true, force: true });
});

/** The same knowledge-graph session, against any client of the server. */
async function graphSession(client: Client) {
  await client.callTool("create_entities", {
    entities: [
      { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
      { name: "Engine", entityType: "machine", observations: ["analytical"] },
    ],
  });
  await client.callTool("create_relations", { relations: [{ from: "Ada", to: "Engine", relationType: "programmed" }] });
  await client.callTool("add_observations", { observations: [{ entityName: "Ada", contents: ["born 1815"] }] });
  const found = await client.callTool("search_nodes", { query: "1815" });
  const graph = (await client.callTool("read_graph")).structuredContent as {
    entities: { name: string; observations: string[] }[];
    relations: { from: string; to: string; relationType: string }[];
  };
  return { found: JSON.stringify(found.structuredContent), graph };
}

describe("server-memory, directly and behind mcpkit serve proxy", () => {
  it("keeps the same graph either way", async () => {
    const proxied = await mcpkitOverHttp(proxy.url);
    expect(proxied.serverCapabilities).toEqual(direct.serverCapabilities);
    // The proxy pages its lists itself, in name order.
    const names = async (c: Client) => (await c.tools()).map((t) => t.name).sort();
    expect(await names(proxied)).toEqual(await names(direct));
    const [viaProxy, plain] = await Promise.all([graphSession(proxied), graphSession(direct)]);
    expect(viaProxy).toEqual(plain);
    expect(plain.found).toContain("Ada");
    expect(plain.graph.entities.find((e) => e.name === "Ada")?.observations).toEqual([
      "wrote the first program",
      "born 1815",
    ]);
    expect(plain.graph.relations).toEqual([{ from: "Ada", to: "Engine", relationType: "programmed" }]);
  });
});
