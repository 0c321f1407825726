// @ts-check
// A client that runs unchanged on Node, Bun and Deno. It calls the portable server's tools
// and prints what it got as one JSON line:
//   node client.mjs http://127.0.0.1:3000/mcp [revision]
//   node client.mjs --stdio <command> [args…]
import process from "node:process";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";

const [target = "http://127.0.0.1:3000/mcp", ...rest] = process.argv.slice(2);
const stdio = target === "--stdio";
const revision = /** @type {import("mcpkit").Revision | undefined} */ (stdio ? undefined : rest[0]);
const transport = stdio
  ? stdioClientTransport({ command: rest[0] ?? "node", args: rest.slice(1), stderr: "inherit" })
  : streamableHttpClientTransport(target);

const client = new Client({
  name: "portable-client",
  version: "1.0.0",
  ...(revision && { protocolVersion: revision }),
});
await client.connect(transport);
/** @param {{ content: { type: string, text?: string }[] }} result */
const text = (result) => result.content.map((block) => block.text ?? "").join("");
/** @type {number[]} */
const progress = [];
const sum = await client.callTool("add", { a: 2, b: 3 });
const countdown = await client.callTool("countdown", { from: 3 }, { onprogress: (p) => progress.push(p.progress) });
const server = JSON.parse(text(await client.callTool("runtime", {})));
console.log(
  JSON.stringify({ revision: client.protocolVersion, sum: text(sum), countdown: text(countdown), progress, server }),
);
await client.close();
