// mcpkit's benchmark server definition: the echo tool declared with zod (as the other
// frameworks do), or with the raw JSON Schema (validated by Ajv) when BENCH_MCPKIT_SCHEMA=json.
import { createServer } from "mcpkit/server";
import { DESCRIPTION, INPUT_JSON_SCHEMA, NAME } from "./echo.mjs";

export async function mcpkitEchoServer(options = {}) {
  const server = createServer({ name: "mcpkit-bench", version: "1", ...options });
  const input =
    process.env.BENCH_MCPKIT_SCHEMA === "json"
      ? INPUT_JSON_SCHEMA
      : await import("zod").then(({ z }) => z.object({ text: z.string() }));
  server.tool(NAME, { description: DESCRIPTION, input }, ({ text }) => text);
  return server;
}
