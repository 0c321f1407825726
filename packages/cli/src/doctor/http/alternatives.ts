import { doctorClient } from "../client.js";
import { within } from "../within.js";
import { recordingFetch } from "./recording-fetch.js";

/** Another path of the origin that answers MCP, and how. */
export interface Answering {
  url: string;
  mode: "streamable-http" | "sse" | "auth";
}

/** Connects to `url` as a client would; how it answers, or undefined when it does not answer MCP. */
export async function probe(
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Answering | undefined> {
  const { streamableHttpClientTransport } = await import("mcpkit/http-client");
  const recorder = recordingFetch();
  const transport = streamableHttpClientTransport(url, {
    headers,
    fetch: recorder.fetch,
    standaloneStream: false,
    onError: () => {},
  });
  const client = doctorClient(timeoutMs);
  try {
    await within(client.connect(transport), timeoutMs);
    return { url: url.href, mode: transport.mode };
  } catch {
    return recorder.exchanges.some((e) => e.status === 401 && e.wwwAuthenticate !== undefined)
      ? { url: url.href, mode: "auth" }
      : undefined;
  } finally {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}

/** The same origin's /mcp, then /sse (the usual places): the first that answers, and the paths tried. */
export async function otherPaths(
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ found?: Answering; tried: string[] }> {
  const tried: string[] = [];
  for (const path of ["/mcp", "/sse"]) {
    const candidate = new URL(path, url.origin);
    if (candidate.pathname === url.pathname.replace(/\/+$/, "")) continue;
    tried.push(path);
    const found = await probe(candidate, headers, timeoutMs);
    if (found) return { found, tried };
  }
  return { tried };
}
