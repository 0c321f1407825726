#!/usr/bin/env node
// mcpkit/openapi (docs/openapi.md): the time and memory to load GitHub's REST description
// (@octokit/openapi, ~1,200 operations) and the Petstore, tools/list bytes with and without
// the large-catalog search, search_tools' top-1/top-5 on the 50 requests of
// test/openapi/fixtures/github-queries.json, and the cost of one call through a tool over
// a direct fetch of the same URL (a node:http API on 127.0.0.1, sequential calls,
// alternating rounds). Uses the compiled packages (npm run build). Prints one JSON object.
// Run with --expose-gc for the heap figure after a collection.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { join } from "node:path";
import { openApiServer } from "mcpkit/openapi";
import { connectInMemory } from "mcpkit/testing";
import { testPackageDir } from "../scripts/test-packages.mjs";
import { median } from "./lib/stats.mjs";

// Installed on first use: no dependency of the workspace (scripts/test-packages.mjs).
const GITHUB = join(testPackageDir("@octokit/openapi"), "generated", "api.github.com.json");
const PETSTORE = new URL("../test/openapi/fixtures/petstore.yaml", import.meta.url).pathname;
const QUERIES = JSON.parse(
  readFileSync(new URL("../test/openapi/fixtures/github-queries.json", import.meta.url), "utf8"),
);
const ROUNDS = Number(process.env.BENCH_OPENAPI_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_OPENAPI_CALLS ?? 2000);

const ms = (start) => Math.round((performance.now() - start) * 10) / 10;
const heapMb = () => {
  globalThis.gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e5) / 10;
};

async function loadTimes(document, baseUrl) {
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    const server = await openApiServer({ document, baseUrl });
    times.push(ms(start));
    await server.close();
  }
  return times;
}

async function github() {
  const before = heapMb();
  const start = performance.now();
  const server = await openApiServer({ document: GITHUB, baseUrl: "https://api.github.com" });
  const firstLoadMs = ms(start);
  const heapGrowthMb = Math.round((heapMb() - before) * 10) / 10;
  const { client, close } = await connectInMemory(server);
  const withCatalog = JSON.stringify(await client.listTools()).length;
  const nameOf = new Map(server.openapi.tools.map((t) => [t.operationId, t.name]));
  const ranks = [];
  const searchStart = performance.now();
  for (const { operationId, query } of QUERIES.queries) {
    const result = await client.callTool("search_tools", { query, limit: 50 });
    ranks.push(result.structuredContent.tools.findIndex((t) => t.name === nameOf.get(operationId)) + 1);
  }
  const searchMs = ms(searchStart) / QUERIES.queries.length;
  await close();
  const full = await openApiServer({
    document: GITHUB,
    baseUrl: "https://api.github.com",
    server: { toolCatalog: false, pageSize: 100_000 },
  });
  const fullClient = await connectInMemory(full);
  const withoutCatalog = JSON.stringify(await fullClient.client.listTools()).length;
  await fullClient.close();
  return {
    operations: server.openapi.tools.length,
    firstLoadMs,
    loadMs: await loadTimes(GITHUB, "https://api.github.com"),
    heapGrowthMb,
    toolsListBytes: { withCatalog, withoutCatalog },
    search: {
      queries: ranks.length,
      top1: ranks.filter((r) => r === 1).length,
      top5: ranks.filter((r) => r >= 1 && r <= 5).length,
      notInTop50: ranks.filter((r) => r === 0).length,
      msPerQuery: Math.round(searchMs * 100) / 100,
    },
  };
}

async function perCall() {
  const pet = JSON.stringify({ id: 1, name: "Rex", photoUrls: [], status: "available" });
  const api = createHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(pet);
  });
  await new Promise((resolve) => api.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${api.address().port}/api/v3`;
  const server = await openApiServer({ document: PETSTORE, baseUrl });
  const { client, close } = await connectInMemory(server);
  const direct = async () => {
    const response = await fetch(`${baseUrl}/pet/1`, { headers: { accept: "application/json" } });
    return response.json();
  };
  const viaTool = () => client.callTool("getPetById", { petId: 1 });
  for (let i = 0; i < 300; i++) await (i % 2 ? direct() : viaTool());
  const rounds = { direct: [], tool: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of [
      ["direct", direct],
      ["tool", viaTool],
    ]) {
      const start = performance.now();
      for (let i = 0; i < CALLS; i++) await fn();
      rounds[name].push(((performance.now() - start) * 1000) / CALLS);
    }
  }
  await close();
  await new Promise((resolve) => api.close(resolve));
  const d = median(rounds.direct);
  const t = median(rounds.tool);
  return {
    calls: CALLS,
    directFetchUs: Math.round(d),
    toolCallUs: Math.round(t),
    overheadUs: Math.round(t - d),
    ratio: Math.round((t / d) * 100) / 100,
  };
}

const petstoreLoadMs = await loadTimes(PETSTORE, "http://127.0.0.1/api/v3");
const result = {
  node: process.version,
  github: await github(),
  petstore: { loadMs: petstoreLoadMs },
  perCall: await perCall(),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
