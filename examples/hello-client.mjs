// @ts-check
// A client that starts examples/hello-server.mjs as a child process and calls its tool.
// Run it with `node examples/hello-client.mjs`.
import { fileURLToPath } from "node:url";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";

const client = new Client({ name: "hello-client", version: "1.0.0" });
await client.connect(
  stdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL("hello-server.mjs", import.meta.url))],
  }),
);
client.on("notifications/message", (params) => console.error(`[server log] ${JSON.stringify(params.data)}`));

const tools = await client.tools();
console.log("tools:", tools.map((t) => t.name).join(", "));
const result = await client.callTool("greet", { name: "Ada" });
console.log(result.content[0]?.type === "text" ? result.content[0].text : result);
await client.close();
