import { type ChildProcess, spawn } from "node:child_process";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, type ClientOptions } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { assertBuilt, MCPKIT_BIN, SERVER_NODE, within } from "../workspace/helpers.js";

/**
 * `mcpkit serve NAME …` as users run it, for the built-in servers' end-to-end tests: the
 * real binary over stdio or on a free port, driven by mcpkit's Client or the official
 * SDK's. Everything a test opens is closed by closeServed().
 */

const open = new Set<() => Promise<void>>();

/** How long a server may take to start: generous, since a loaded machine starts Node slowly. */
const STARTUP_MS = 15_000;

export async function closeServed(): Promise<void> {
  const closers = [...open];
  open.clear();
  await Promise.all(closers.map((close) => close().catch(() => undefined)));
}

function track(close: () => Promise<void>): () => Promise<void> {
  const once = async () => {
    open.delete(once);
    await close();
  };
  open.add(once);
  return once;
}

/** What a served process gets: PATH and HOME only (no stray GITHUB_TOKEN), and `env`. */
function environment(env: Record<string, string | undefined>): Record<string, string> {
  const merged: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
}

/** mcpkit's Client on `mcpkit serve NAME ARGS --stdio`. */
export async function mcpkitOverStdio(
  name: string,
  args: string[],
  options: Partial<ClientOptions> & { env?: Record<string, string | undefined> } = {},
): Promise<Client> {
  assertBuilt();
  const { env = {}, ...clientOptions } = options;
  const client = new Client({ name: `${name}-test`, version: "0.0.0", timeoutMs: 10_000, ...clientOptions });
  const transport = stdioClientTransport({
    command: SERVER_NODE,
    args: [MCPKIT_BIN, "serve", name, ...args, "--stdio"],
    env: environment(env),
    stderr: "pipe",
    killTimeoutMs: 500,
  });
  track(() => within(client.close(), 5000, "client.close()"));
  await within(client.connect(transport), STARTUP_MS, `connect to mcpkit serve ${name}`);
  return client;
}

/** The official SDK's client on `mcpkit serve NAME ARGS --stdio`. */
export async function sdkOverStdio(
  name: string,
  args: string[],
  options: {
    capabilities?: Record<string, unknown>;
    env?: Record<string, string | undefined>;
    /** Sets request handlers (elicitation, sampling) before connecting. */
    setup?: (client: SdkClient) => void;
  } = {},
): Promise<SdkClient> {
  assertBuilt();
  const client = new SdkClient({ name: "sdk-test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  options.setup?.(client);
  const transport = new StdioClientTransport({
    command: SERVER_NODE,
    args: [MCPKIT_BIN, "serve", name, ...args, "--stdio"],
    env: environment(options.env ?? {}),
    stderr: "pipe",
  });
  track(() => within(client.close(), 5000, "sdk close"));
  await within(client.connect(transport), STARTUP_MS, `SDK connect to mcpkit serve ${name}`);
  return client;
}

export interface Served {
  url: URL;
  child: ChildProcess;
  stderr(): string;
}

/** `mcpkit serve NAME --port 0 ARGS`, resolved once it prints its URL. */
export async function serveHttp(
  name: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<Served> {
  assertBuilt();
  const child = spawn(SERVER_NODE, [MCPKIT_BIN, "serve", name, "--port", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: environment(env),
  });
  let stderr = "";
  // Resolves on the line that names the URL, or when the process exits without one.
  const listening = new Promise<string | undefined>((resolve) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const url = /serving MCP on (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    child.once("close", () => resolve(undefined));
  });
  const close = track(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await within(exited, 5000, "the HTTP server to exit").catch(() => child.kill("SIGKILL"));
  });
  const found = await within(listening, STARTUP_MS, `mcpkit serve ${name} --port 0 to listen`).catch(async (error) => {
    await close();
    throw error;
  });
  if (!found) throw new Error(`mcpkit serve ${name} exited: ${stderr}`);
  return { url: new URL(found), child, stderr: () => stderr };
}

/** mcpkit's Client over Streamable HTTP. */
export async function mcpkitOverHttp(url: URL, options: Partial<ClientOptions> = {}): Promise<Client> {
  const client = new Client({ name: "http-test", version: "0.0.0", timeoutMs: 10_000, ...options });
  track(() => within(client.close(), 5000, "client.close()"));
  await within(client.connect(streamableHttpClientTransport(url)), STARTUP_MS, "connect over HTTP");
  return client;
}

/** The official SDK's client over Streamable HTTP. */
export async function sdkOverHttp(
  url: URL,
  capabilities: Record<string, unknown> = {},
  setup?: (client: SdkClient) => void,
): Promise<SdkClient> {
  const client = new SdkClient({ name: "sdk-http-test", version: "1.0.0" }, { capabilities });
  setup?.(client);
  track(() => within(client.close(), 5000, "sdk close"));
  await within(client.connect(new StreamableHTTPClientTransport(url)), STARTUP_MS, "SDK connect over HTTP");
  return client;
}

export { resourceText, textOf } from "./results.js";
