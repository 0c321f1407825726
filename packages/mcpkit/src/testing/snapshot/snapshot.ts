import type { Client } from "../../client/client.js";
import type { Revision } from "../../protocol/versions.js";
import { isIsoTimestamp } from "../json/iso-time.js";
import { isObject, sortKeys } from "../json/sorted.js";
import { listAll } from "../runner/send.js";
import { connectClient } from "../target/connect-client.js";
import { resolveTarget, type ServerTarget } from "../target/server-target.js";

/**
 * A server's surface (docs/testing.md, "Snapshots"): what a client can rely on, as JSON
 * with sorted keys and sorted lists and nothing that changes from one run to the next,
 * so that two snapshots of an unchanged server are equal byte for byte.
 */
export interface Snapshot {
  /** The format's version. */
  mcpkitSnapshot: 1;
  protocolVersion: string;
  serverInfo: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  instructions?: string;
  tools: Record<string, unknown>[];
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  resourceTemplates: Record<string, unknown>[];
}

export interface SnapshotOptions {
  /** The revision to speak (default: the newest the server speaks). */
  protocol?: Revision;
  /** How long each request may take, ms (default 30 s). */
  timeoutMs?: number;
  /** Where a command starts (default: this process's folder). */
  cwd?: string;
}

/** Takes the snapshot of a server: a command, a URL, an McpServer, or a Client already connected. */
export async function snapshot(server: ServerTarget | Client, options: SnapshotOptions = {}): Promise<Snapshot> {
  if (isClient(server)) return surfaceOf(server, options.timeoutMs ?? 30_000);
  const connected = await connectClient(resolveTarget(server), {
    client: {
      ...(options.protocol && { protocolVersion: options.protocol }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    },
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  try {
    return await surfaceOf(connected.client, options.timeoutMs ?? 30_000);
  } finally {
    await connected.close();
  }
}

const isClient = (value: unknown): value is Client =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Partial<Client>).callTool === "function" &&
  typeof (value as Partial<Client>).request === "function";

async function surfaceOf(client: Client, timeoutMs: number): Promise<Snapshot> {
  const capabilities = (client.serverCapabilities ?? {}) as Record<string, unknown>;
  const list = async (capability: string, method: string, key: string, by: string) => {
    if (!capabilities[capability]) return [];
    const { [key]: items = [] } = await listAll(client, method, key, { timeoutMs });
    return items
      .filter(isObject)
      .map(steady)
      .sort((a, b) => String(a[by]).localeCompare(String(b[by])));
  };
  const surface: Snapshot = {
    mcpkitSnapshot: 1,
    protocolVersion: client.protocolVersion ?? "unknown",
    serverInfo: steady({ ...(client.serverInfo ?? {}) }),
    capabilities: steady(capabilities),
    ...(client.instructions !== undefined && { instructions: client.instructions }),
    tools: await list("tools", "tools/list", "tools", "name"),
    prompts: await list("prompts", "prompts/list", "prompts", "name"),
    resources: await list("resources", "resources/list", "resources", "uri"),
    resourceTemplates: await list("resources", "resources/templates/list", "resourceTemplates", "uriTemplate"),
  };
  return sortKeys(surface);
}

/**
 * An item without what changes by itself: a resource's `annotations.lastModified`, and
 * timestamps in `_meta`. Everything else a client sees stays.
 */
function steady(item: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...item };
  if (isObject(copy.annotations) && "lastModified" in copy.annotations) {
    const { lastModified: _, ...rest } = copy.annotations;
    copy.annotations = rest;
  }
  if (isObject(copy._meta)) copy._meta = withoutTimestamps(copy._meta) as Record<string, unknown>;
  return copy;
}

function withoutTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !isIsoTimestamp(v)).map(withoutTimestamps);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !isIsoTimestamp(v))
      .map(([k, v]) => [k, withoutTimestamps(v)]),
  );
}

/** The snapshot as a file holds it: two-space JSON and a final newline. */
export const formatSnapshot = (surface: Snapshot) => `${JSON.stringify(sortKeys(surface), null, 2)}\n`;
