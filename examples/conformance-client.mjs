// @ts-check
// The client the official conformance suite drives (`conformance client --command ...`):
// run as `node examples/conformance-client.mjs <url>` with MCP_CONFORMANCE_SCENARIO set
// (and MCP_CONFORMANCE_CONTEXT, JSON, for scenarios that pass arguments). The client
// finds the server's revision itself: server/discover first (2026-07-28), the initialize
// handshake for older servers. Each scenario does what its description asks; any other
// scenario connects, lists and calls tools, and closes. The exit status says whether that worked.
import { OAuthClient } from "mcpkit/auth";
import { Client, SkillVerificationError } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";

const url = process.argv[2] ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
if (!url) {
  console.error("usage: node examples/conformance-client.mjs <server-url>");
  process.exit(2);
}

/** @returns {Record<string, unknown>} */
function context() {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  } catch {
    return {};
  }
}

/** @param {import("mcpkit").CallToolResult} result */
const text = (result) =>
  (result.content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");

/** @param {Partial<import("mcpkit/client").ClientOptions>} [options] */
async function connect(options = {}) {
  const client = new Client({
    name: "mcpkit-conformance-client",
    version: "0.1.0",
    // Warnings (a tool left out of tools/list) go to stderr, where the suite keeps them.
    onError: (error) => console.error(error instanceof Error ? error.message : error),
    ...options,
  });
  const auth = scenario.startsWith("auth/") ? oauthClient(context()) : undefined;
  await client.connect(streamableHttpClientTransport(url, auth ? { auth } : {}));
  return client;
}

/** The suite's URL for this client's metadata document (Client ID Metadata Documents). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * basic/authorization for the auth/* scenarios. The suite's authorization server approves
 * at once, so the "browser" is a fetch that reads the redirect instead of following it.
 * @param {Record<string, unknown>} ctx
 */
function oauthClient(ctx) {
  const clientId = typeof ctx.client_id === "string" ? ctx.client_id : undefined;
  const secret = typeof ctx.client_secret === "string" ? ctx.client_secret : undefined;
  const pem = typeof ctx.private_key_pem === "string" ? ctx.private_key_pem : undefined;
  /** @type {import("mcpkit/auth").MachineCredentials | undefined} */
  let machine;
  if (clientId && pem)
    machine = { client_id: clientId, private_key_pem: pem, algorithm: String(ctx.signing_algorithm ?? "ES256") };
  else if (clientId && secret && scenario.startsWith("auth/client-credentials"))
    machine = { client_id: clientId, client_secret: secret };
  /** @type {import("mcpkit/auth").EnterpriseCredentials | undefined} */
  const enterprise =
    clientId && typeof ctx.idp_token_endpoint === "string" && typeof ctx.idp_id_token === "string"
      ? {
          idpTokenEndpoint: ctx.idp_token_endpoint,
          idpIssuer: typeof ctx.idp_issuer === "string" ? ctx.idp_issuer : undefined,
          idpClientId: String(ctx.idp_client_id ?? clientId),
          idToken: ctx.idp_id_token,
          client_id: clientId,
          client_secret: secret,
        }
      : undefined;
  // Workload identity federation: the suite plays the platform and hands over its JWT.
  /** @type {import("mcpkit/auth").WorkloadIdentity | undefined} */
  const workload =
    typeof ctx.valid_jwt === "string"
      ? { assertion: ctx.valid_jwt, ...(clientId && { client_id: clientId }) }
      : undefined;
  const preRegistered =
    !machine && !enterprise && !workload && clientId
      ? { client_id: clientId, ...(secret && { client_secret: secret }) }
      : undefined;
  return new OAuthClient({
    serverUrl: url,
    redirectUri: "http://localhost:3333/callback",
    redirect: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: "manual" });
      const location = response.headers.get("location");
      if (!location) throw new Error(`The authorization endpoint answered ${response.status} without a redirect`);
      return new URL(location, authorizationUrl);
    },
    credentials: preRegistered ? () => preRegistered : undefined,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: "mcpkit-conformance-client",
    ...(machine && { machine }),
    ...(enterprise && { enterprise }),
    ...(workload && { workload }),
  });
}

/**
 * Runs `body` with a connected client and always closes it.
 * @param {(client: Client) => Promise<void>} body
 * @param {Partial<import("mcpkit/client").ClientOptions>} [options]
 */
async function withClient(body, options) {
  const client = await connect(options);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** Handlers for everything a server may ask of a client, so every capability is declared. */
const answerEverything = {
  /** @type {import("mcpkit/client").ClientOptions["sampling"]} */
  sampling: () => ({ role: "assistant", model: "conformance", content: { type: "text", text: "ok" } }),
  /** @type {import("mcpkit/client").ClientOptions["elicitation"]} */
  elicitation: () => ({ action: "accept", content: { confirmed: true } }),
  roots: [{ uri: "file:///tmp/conformance", name: "conformance" }],
};

/** @type {Record<string, () => Promise<void>>} */
const scenarios = {
  // basic/lifecycle: the handshake alone (the server offers no capabilities to use).
  async initialize() {
    await withClient(async () => {});
  },

  async tools_call() {
    await withClient(async (client) => {
      const tools = await client.tools();
      if (!tools.some((t) => t.name === "add_numbers")) throw new Error("the server offers no add_numbers tool");
      console.log(text(await client.callTool("add_numbers", { a: 5, b: 3 })));
    });
  },

  // basic/index §_meta: the envelope on every request; -32022 makes the client retry with
  // a version from `supported`. Every capability is declared so each check has one to see.
  async "request-metadata"() {
    await withClient(async (client) => {
      const tools = await client.tools();
      const first = tools[0];
      if (first) console.log(text(await client.callTool(first.name, {})));
    }, answerEverything);
  },

  // client/elicitation: accept without filling anything in; the Client applies the schema's defaults.
  async "elicitation-sep1034-client-defaults"() {
    await withClient(
      async (client) => {
        console.log(text(await client.callTool("test_client_elicitation_defaults", {})));
      },
      { elicitation: () => ({ action: "accept", content: {} }) },
    );
  },

  // transports §Resumability: the server drops the tool's stream; the answer comes on the resumed GET.
  async "sse-retry"() {
    await withClient(async (client) => {
      await client.tools();
      console.log(text(await client.callTool("test_reconnection", {})));
    });
  },

  // Tool schemas are handed on untouched: echo the focal tool's inputSchema back.
  async "json-schema-2020-12-preservation"() {
    await withClient(async (client) => {
      const tools = await client.tools();
      const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("the server offers no json_schema_2020_12_tool");
      console.log(text(await client.callTool("json_schema_echo", { schema: focal.inputSchema })));
    });
  },

  // basic/index §JSON Schema Usage: a network $ref is never fetched; listing the tools is enough to show it.
  async "json-schema-ref-no-deref"() {
    await withClient(async (client) => {
      const tools = await client.tools();
      console.log(`tools: ${tools.map((t) => t.name).join(", ")}`);
    });
  },

  // basic/patterns/mrtr: the elicitation handler answers each input request; the Client
  // retries with a new id, echoing requestState exactly (or leaving it out). The unrelated
  // tool runs while the first call is between rounds, and must carry no MRTR fields.
  async "sep-2322-client-request-state"() {
    /** @type {Client | undefined} */
    let current;
    let unrelatedDone = false;
    await withClient(
      async (client) => {
        current = client;
        console.log(text(await client.callTool("test_mrtr_echo_state", {})));
        console.log(text(await client.callTool("test_mrtr_no_state", {})));
        if (!unrelatedDone) console.log(text(await client.callTool("test_mrtr_unrelated", {})));
        console.log(text(await client.callTool("test_mrtr_no_result_type", {})));
      },
      {
        elicitation: async () => {
          if (current && !unrelatedDone) {
            unrelatedDone = true;
            console.log(text(await current.callTool("test_mrtr_unrelated", {})));
          }
          return { action: "accept", content: { confirmed: true } };
        },
      },
    );
  },

  // transports §Standard Request Headers: Mcp-Method on every POST, Mcp-Name on calls, reads and gets.
  async "http-standard-headers"() {
    await withClient(async (client) => {
      for (const tool of await client.tools()) console.log(text(await client.callTool(tool.name, {})));
      for (const resource of await client.resources()) await client.readResource(resource.uri);
      for (const prompt of await client.prompts()) await client.getPrompt(prompt.name, {});
    });
  },

  // transports §Custom Headers from Tool Parameters: the calls the scenario asks for, with their arguments.
  async "http-custom-headers"() {
    const calls = /** @type {{ name: string, arguments: Record<string, unknown> }[]} */ (context().toolCalls ?? []);
    await withClient(async (client) => {
      await client.tools();
      for (const call of calls) console.log(text(await client.callTool(call.name, call.arguments)));
    });
  },

  // server/tools §x-mcp-header: tools with invalid annotations are left out of the list, so
  // calling everything listed calls only the valid ones.
  async "http-invalid-tool-headers"() {
    await withClient(async (client) => {
      for (const tool of await client.tools()) {
        const properties = /** @type {Record<string, unknown>} */ (tool.inputSchema.properties ?? {});
        console.log(text(await client.callTool(tool.name, "region" in properties ? { region: "us-west1" } : {})));
      }
    });
  },

  // Skills extension (SEP-2640): listing fetches no file (Lazy Retrieval).
  async "sep-2640-client-no-prefetch"() {
    await withClient(async (client) => {
      const skills = await client.skills();
      console.log(`skills: ${skills.map((s) => s.frontmatter.name).join(", ")}`);
    });
  },

  // The server tampers with SKILL.md (digest, size, frontmatter): loading must refuse it,
  // so the supporting file is never read.
  "sep-2640-client-verify-digest": loadEverySkill,
  "sep-2640-client-verify-size": loadEverySkill,
  "sep-2640-client-verify-frontmatter": loadEverySkill,
};

/** Loads each listed skill and reads its supporting files; a refused skill is reported and skipped. */
async function loadEverySkill() {
  await withClient(async (client) => {
    for (const entry of await client.skills()) {
      try {
        const skill = await client.loadSkill(entry);
        const root = entry.uri.slice(0, -"SKILL.md".length);
        for (const file of Array.isArray(entry.resources) ? entry.resources : []) {
          if (file.uri !== entry.uri) console.log((await skill.readText(file.uri.slice(root.length))).trim());
        }
      } catch (error) {
        if (!(error instanceof SkillVerificationError)) throw error;
        console.error(`refused ${entry.uri}: ${error.message}`);
      }
    }
  });
}

/** Any other scenario (auth/* and newer ones): connect, list the tools, call the first, close. */
async function fallback() {
  await withClient(async (client) => {
    if (!client.serverCapabilities?.tools) return;
    const tools = await client.tools();
    console.log(`tools: ${tools.map((t) => t.name).join(", ") || "(none)"}`);
    const first = tools[0];
    if (first) console.log(text(await client.callTool(first.name, {})));
  });
}

const run = scenarios[scenario] ?? fallback;
try {
  await run();
  process.exit(0);
} catch (error) {
  console.error(`scenario ${scenario || "(none)"} failed:`, error instanceof Error ? error.message : error);
  process.exit(1);
}
