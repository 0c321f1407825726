// mcpkit's benchmark server definition: the bench's tools (tools.mjs) declared with zod, as
// the other frameworks do, or with their raw JSON Schema (validated by Ajv) when
// BENCH_MCPKIT_SCHEMA=json.
import { createServer } from "mcpkit/server";
import { benchTools } from "./tools.mjs";

export async function mcpkitBenchServer(options = {}) {
  const server = createServer({ name: "mcpkit-bench", version: "1", ...options });
  const z = process.env.BENCH_MCPKIT_SCHEMA === "json" ? undefined : (await import("zod")).z;
  for (const tool of await benchTools()) {
    const input = z ? z.object(tool.shape(z)) : tool.inputSchema;
    server.tool(tool.name, { description: tool.description, input }, tool.run);
  }
  return server;
}

/**
 * The endpoint's session caps for the benchmark: every session of a run comes from one
 * address, and the default per-client cap (a tenth of maxSessions, 1,000) would end the
 * oldest unused ones, so a server asked to hold 10,000 idle sessions would hold 1,000.
 * The bare servers have no caps; these hold every session the memory suite opens.
 */
export const BENCH_SESSION_CAPS = { maxSessions: 50_000, maxSessionsPerClient: 50_000 };
