import { readBounded } from "../http/read-bounded.js";
import type { GatewayHealthAnswer, GatewayHealthView, UpstreamHealthView } from "./contract/gateway.js";
import type { Target } from "./target.js";

/** How long /healthz may take, and the most of it read: a gateway's answers are small. */
const TIMEOUT_MS = 3000;
const MAX_BYTES = 256 * 1024;
const MAX_UPSTREAMS = 1000;
const MAX_TEXT = 2000;

/**
 * A gateway's health (`mcpkit gateway`'s GET /healthz) beside the HTTP server the inspector
 * is connected to: `healthz` next to the MCP endpoint's path (a gateway behind a path
 * prefix), then at the origin's root (a virtual server at /triage, or /a/b). Sent to the
 * endpoint's own origin, without its headers (/healthz needs none; a token stays with the
 * MCP endpoint), and no redirect is followed. An answer that is not a gateway's, or none,
 * says so: most servers are no gateway.
 */
export async function readGatewayHealth(target: Target): Promise<GatewayHealthAnswer> {
  if (target.kind !== "http")
    return { none: "A gateway tells its upstreams at GET /healthz when it serves HTTP (mcpkit gateway --port)" };
  const candidates = [...new Set([new URL("healthz", target.url).href, new URL("/healthz", target.url).href])];
  const refusals: string[] = [];
  for (const url of candidates) {
    const read = await readOne(url);
    if (typeof read !== "string") return { health: { ...read, url, at: Date.now() } };
    refusals.push(`${url}: ${read}`);
  }
  return { none: `No gateway's /healthz here (${refusals.join("; ")})` };
}

/** The health at `url`, or why it is not a gateway's. */
async function readOne(url: string): Promise<Omit<GatewayHealthView, "url" | "at"> | string> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return `not reached (${error instanceof Error ? error.message : String(error)})`;
  }
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("json")) {
    await response.body?.cancel().catch(() => {});
    return `HTTP ${response.status}`;
  }
  const body = await readBounded(response, MAX_BYTES);
  if (body === undefined) return `larger than ${MAX_BYTES} bytes`;
  try {
    return parseHealth(JSON.parse(Buffer.from(body).toString("utf8"))) ?? "not a gateway's answer";
  } catch {
    return "not JSON";
  }
}

const text = (value: unknown) => (typeof value === "string" ? value.slice(0, MAX_TEXT) : undefined);

/** The health of a gateway's answer, its known fields only, or undefined when it is not one. */
export function parseHealth(value: unknown): Omit<GatewayHealthView, "url" | "at"> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { status, upstreams } = value as { status?: unknown; upstreams?: unknown };
  if (typeof status !== "string" || !Array.isArray(upstreams)) return undefined;
  const parsed: UpstreamHealthView[] = [];
  for (const item of upstreams.slice(0, MAX_UPSTREAMS)) {
    if (typeof item !== "object" || item === null) return undefined;
    const u = item as Record<string, unknown>;
    const name = text(u.name);
    const state = text(u.state);
    if (name === undefined || state === undefined || typeof u.restarts !== "number") return undefined;
    const lastError = text(u.lastError);
    const lastErrorAt = text(u.lastErrorAt);
    parsed.push({
      name,
      transport: text(u.transport) ?? "",
      state,
      restarts: u.restarts,
      perSession: u.perSession === true,
      since: text(u.since) ?? "",
      ...(lastError !== undefined && { lastError }),
      ...(lastErrorAt !== undefined && { lastErrorAt }),
    });
  }
  return { status: status.slice(0, 40), upstreams: parsed };
}
