// @ts-check
// The client the official conformance suite drives (`conformance client --command ...`):
// run as `node examples/conformance-client.mjs <url>` with MCP_CONFORMANCE_SCENARIO set.
// Each scenario does what its description asks; any other scenario connects, lists and
// calls tools, and closes. The exit status says whether that worked.
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";

const url = process.argv[2] ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
if (!url) {
  console.error("usage: node examples/conformance-client.mjs <server-url>");
  process.exit(2);
}

/** @param {import("mcpkit").CallToolResult} result */
const text = (result) =>
  result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");

/** @param {Partial<import("mcpkit/client").ClientOptions>} [options] */
async function connect(options = {}) {
  const client = new Client({ name: "mcpkit-conformance-client", version: "0.1.0", ...options });
  await client.connect(streamableHttpClientTransport(url));
  return client;
}

/** @type {Record<string, () => Promise<void>>} */
const scenarios = {
  // basic/lifecycle: the handshake alone (the server offers no capabilities to use).
  async initialize() {
    const client = await connect();
    await client.close();
  },

  async tools_call() {
    const client = await connect();
    try {
      const tools = await client.tools();
      if (!tools.some((t) => t.name === "add_numbers")) throw new Error("the server offers no add_numbers tool");
      console.log(text(await client.callTool("add_numbers", { a: 5, b: 3 })));
    } finally {
      await client.close();
    }
  },

  // client/elicitation: accept without filling anything in; the Client applies the schema's defaults.
  async "elicitation-sep1034-client-defaults"() {
    const client = await connect({ elicitation: () => ({ action: "accept", content: {} }) });
    try {
      console.log(text(await client.callTool("test_client_elicitation_defaults", {})));
    } finally {
      await client.close();
    }
  },

  // transports §Resumability: the server drops the tool's stream; the answer comes on the resumed GET.
  async "sse-retry"() {
    const client = await connect();
    try {
      await client.tools();
      console.log(text(await client.callTool("test_reconnection", {})));
    } finally {
      await client.close();
    }
  },

  // Tool schemas are handed on untouched: echo the focal tool's inputSchema back.
  async "json-schema-2020-12-preservation"() {
    const client = await connect();
    try {
      const tools = await client.tools();
      const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("the server offers no json_schema_2020_12_tool");
      console.log(text(await client.callTool("json_schema_echo", { schema: focal.inputSchema })));
    } finally {
      await client.close();
    }
  },
};

/** Any other scenario (auth/* and newer ones): connect, list the tools, call the first, close. */
async function fallback() {
  const client = await connect();
  try {
    if (!client.serverCapabilities?.tools) return;
    const tools = await client.tools();
    console.log(`tools: ${tools.map((t) => t.name).join(", ") || "(none)"}`);
    const first = tools[0];
    if (first) console.log(text(await client.callTool(first.name, {})));
  } finally {
    await client.close();
  }
}

const run = scenarios[scenario] ?? fallback;
try {
  await run();
  process.exit(0);
} catch (error) {
  console.error(`scenario ${scenario || "(none)"} failed:`, error instanceof Error ? error.message : error);
  process.exit(1);
}
