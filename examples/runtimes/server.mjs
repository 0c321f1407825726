// @ts-check
// One server definition that every runtime serves: Node, Bun, Deno and Cloudflare Workers.
// Its tools take raw JSON Schema, so no schema library travels with it.

import { jsonSchemaValidatorInUse } from "mcpkit";
import { createServer } from "mcpkit/server";

/** @param {{ requestStateKey?: string }} [options] */
export function createPortableServer(options = {}) {
  const server = createServer({ name: "portable", version: "1.0.0", ...options });

  server.tool(
    "add",
    {
      description: "Adds two numbers",
      input: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => String(Number(a) + Number(b)),
  );

  server.tool(
    "countdown",
    {
      description: "Counts down from a number, reporting progress at each step",
      input: {
        type: "object",
        properties: { from: { type: "integer", minimum: 1, maximum: 10 } },
        required: ["from"],
      },
    },
    async ({ from }, ctx) => {
      const steps = Number(from);
      for (let done = 1; done <= steps; done++) ctx.progress(done, steps, `${steps - done} to go`);
      return "liftoff";
    },
  );

  server.tool(
    "runtime",
    {
      description: "Names the runtime serving this and its JSON Schema validator",
      annotations: { readOnlyHint: true },
    },
    () => JSON.stringify({ runtime: runtimeName(), validator: jsonSchemaValidatorInUse() }),
  );

  return server;
}

/** "Node.js/22.…", "Bun/1.…", "Deno/2.…" or "Cloudflare-Workers". */
function runtimeName() {
  const { navigator } = /** @type {{ navigator?: { userAgent?: string } }} */ (globalThis);
  return navigator?.userAgent ?? `Node.js/${process.versions.node}`;
}
