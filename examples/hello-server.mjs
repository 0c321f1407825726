// @ts-check
// A complete MCP server over stdio: one tool, one resource, one prompt.
// Run it with `node examples/hello-server.mjs`, or point any MCP client at that command.
import { createServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { z } from "zod";

export function createHelloServer() {
  const server = createServer({ name: "hello", version: "1.0.0", instructions: "Greets people." });

  server.tool(
    "greet",
    {
      description: "Greets someone by name",
      input: z.object({ name: z.string().describe("Who to greet") }),
      annotations: { readOnlyHint: true },
    },
    async ({ name }, ctx) => {
      ctx.log("info", `greeting ${name}`);
      return `Hello, ${name}!`;
    },
  );

  server.resource("hello://motd", { name: "motd", mimeType: "text/plain" }, () => "Have a nice day.");

  server.prompt(
    "introduce",
    { description: "Ask the model to introduce someone", args: { name: { required: true } } },
    ({ name }) => `Please write a short, warm introduction for ${name}.`,
  );

  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await createHelloServer().connect(stdioServerTransport());
}
