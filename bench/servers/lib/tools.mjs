// The tools a benchmark server exposes, the same for every implementation: the echo tool,
// or with BENCH_WORKLOAD=1 the workload scenario's tools (workload.mjs: Redis and a local
// HTTP API). Each tool is described once, for every framework's way of declaring it:
//   inputSchema  the JSON Schema (what the bare servers publish, or mcpkit with
//                BENCH_MCPKIT_SCHEMA=json)
//   shape(z)     the zod shape (`z.object(shape)` for the frameworks that take an object)
//   valid(args)  the bare servers' hand-written check of the arguments
//   run(args)    the work: the text of the answer, or a promise of it
// (No zod import here: the bare servers must not pay for it.)
import { DESCRIPTION, INPUT_JSON_SCHEMA, NAME } from "./echo.mjs";

export const ECHO = {
  name: NAME,
  description: DESCRIPTION,
  inputSchema: INPUT_JSON_SCHEMA,
  shape: (z) => ({ text: z.string() }),
  valid: (args) => typeof args?.text === "string",
  run: ({ text }) => text,
};

export const WORKLOAD = process.env.BENCH_WORKLOAD === "1";

/** The tools of this run: `[ECHO]`, or the workload's (connected to its Redis and API). */
export async function benchTools() {
  return WORKLOAD ? (await import("./workload.mjs")).workloadTools() : [ECHO];
}

/** A tool's answer as a CallToolResult, for the frameworks whose handlers return one. */
const content = (text) => ({ content: [{ type: "text", text }] });
export const toolResult = (text) => (typeof text === "string" ? content(text) : text.then(content));
