import { createServer, type ServerOptions } from "mcpkit/server";
import { z } from "zod";

/**
 * The server: its tools, resources and prompts, defined once and served over any
 * transport to every protocol revision. `mcpkit dev`, `mcpkit serve` and `mcpkit bundle`
 * load this module's default export; `options` are what the one serving it adds (for
 * example the shared stores of a cluster).
 */
export default function createAppServer(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: "{{name}}", version: "0.1.0", ...options });

  server.tool(
    "greet",
    {
      description: "Greets someone by name",
      input: z.object({ name: z.string().min(1).describe("Who to greet") }),
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => `Hello, ${name}!`,
  );

  server.resource(
    "about://{{slug}}",
    { name: "about", description: "What this server is for", mimeType: "text/plain" },
    () => "{{description}}",
  );

  server.prompt(
    "welcome",
    { description: "Asks for a short welcome message", args: { name: { required: true } } },
    ({ name }) => `Write a short, warm welcome message for ${name}.`,
  );

  return server;
}
