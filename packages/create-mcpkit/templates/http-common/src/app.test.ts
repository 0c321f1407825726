import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { start } from "./app.js";

// The server over real HTTP on a free port of 127.0.0.1, as an MCP client reaches it.

test("answers an MCP client at /mcp", async () => {
  const served = await start(0);
  const client = new Client({ name: "test-client", version: "0.0.0" });
  try {
    await client.connect(streamableHttpClientTransport(served.url));
    const result = await client.callTool("greet", { name: "Ada" });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);
  } finally {
    await client.close();
    await served.close();
  }
});

test("refuses a request from a web page of another origin (DNS rebinding)", async () => {
  const served = await start(0);
  try {
    const response = await fetch(served.url, {
      method: "POST",
      headers: { origin: "https://attacker.example", "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.equal(response.status, 403);
  } finally {
    await served.close();
  }
});
