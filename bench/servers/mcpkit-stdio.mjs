// mcpkit serving the benchmark's echo tool over stdio.
import { createServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";

const server = createServer({ name: "mcpkit-bench", version: "1" });
server.tool(
  "echo",
  {
    description: "Echoes the text back",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  ({ text }) => text,
);
await server.connect(stdioServerTransport());
