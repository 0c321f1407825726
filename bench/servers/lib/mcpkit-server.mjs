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
