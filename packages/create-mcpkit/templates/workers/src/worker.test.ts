import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import worker from "./worker.js";

// The worker's fetch handler, called as the Workers runtime calls it, by a real client.
const env = { MCP_REQUEST_STATE_KEY: "a test key that is at least 32 bytes long" };
const viaWorker = (input: string | URL | Request, init?: RequestInit) => worker.fetch(new Request(input, init), env);

test("serves a 2026-07-28 client without a session", async () => {
  const client = new Client({ name: "test-client", version: "0.0.0" });
  try {
    await client.connect(streamableHttpClientTransport(new URL("http://localhost/mcp"), { fetch: viaWorker }));
    assert.equal(client.protocolVersion, "2026-07-28");
    const result = await client.callTool("greet", { name: "Ada" });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);
  } finally {
    await client.close();
  }
});

test("answers 404 off the MCP path", async () => {
  const response = await worker.fetch(new Request("http://localhost/elsewhere"), env);
  assert.equal(response.status, 404);
});
