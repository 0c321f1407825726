/** The official SDK client sees a server with another mounted into it as an ordinary server. */

import { everythingServer } from "@mcpkit/servers/everything";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterEach, expect, it } from "vitest";

let listening: Listening | undefined;
let client: SdkClient | undefined;

afterEach(async () => {
  await client?.close();
  await listening?.close();
});

it("lists, calls, reads and completes through a mount over Streamable HTTP", async () => {
  const hub = createServer({ name: "hub", version: "1.0.0" });
  hub.tool("hello", {}, () => "hello from the hub");
  hub.mount("ev", everythingServer().server);
  const streamable = createStreamableHttpHandler(hub);
  listening = await listen({ fetch: (request) => streamable.fetch(request), close: () => streamable.close() });
  client = new SdkClient({ name: "sdk", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", listening.url)));

  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["hello", "ev_add", "ev_test_simple_text"]));
  const add = await client.callTool({ name: "ev_add", arguments: { a: 1, b: 2 } });
  expect(add.structuredContent).toEqual({ sum: 3 });
  const read = await client.readResource({ uri: "test://ev/static-text" });
  expect(read.contents[0]?.uri).toBe("test://ev/static-text");
  const templated = await client.readResource({ uri: "test://ev/template/5/data" });
  expect(templated.contents[0]?.uri).toBe("test://ev/template/5/data");
  const prompt = await client.getPrompt({ name: "ev_test_simple_prompt" });
  expect(prompt.messages.length).toBeGreaterThan(0);
  const completion = await client.complete({
    ref: { type: "ref/resource", uri: "test://ev/template/{id}/data" },
    argument: { name: "id", value: "14" },
  });
  expect(completion.completion.values).toEqual([
    "14",
    "140",
    "141",
    "142",
    "143",
    "144",
    "145",
    "146",
    "147",
    "148",
    "149",
  ]);
});
