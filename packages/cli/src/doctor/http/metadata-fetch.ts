import { readBounded } from "../../http/read-bounded.js";
import { formatMs } from "../within.js";

/** The largest metadata document read: far beyond any real one. */
export const MAX_METADATA_BYTES = 1024 * 1024;

/** One metadata request, and what it gave. */
export interface MetadataAttempt {
  url: string;
  status?: number;
  error?: string;
}

/**
 * The fetch authorization discovery uses, made for documents a server names: GET only,
 * with no header but `Accept` (never the headers given for the MCP server: they belong to
 * its origin), a time limit for the whole exchange and a size limit for the body. What
 * the caller asks for beyond the URL is ignored, so nothing here can register a client or
 * ask for a token. Each attempt is logged, to explain a discovery that found nothing.
 */
export function metadataFetch(timeoutMs: number, log: MetadataAttempt[]): typeof fetch {
  const bounded = async (input: string | URL | Request): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const attempt: MetadataAttempt = { url };
    log.push(attempt);
    try {
      const response = await fetch(url, {
        method: "GET",
        headers: { accept: "application/json" },
        ...(timeoutMs > 0 && { signal: AbortSignal.timeout(timeoutMs) }),
      });
      attempt.status = response.status;
      const body = await readBounded(response, MAX_METADATA_BYTES);
      if (!body)
        throw new Error(`the document is larger than ${MAX_METADATA_BYTES / 1024 / 1024} MiB, which no metadata needs`);
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      const message =
        (error as Error).name === "TimeoutError"
          ? `no answer within ${formatMs(timeoutMs)}`
          : ((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
      attempt.error = message;
      throw new Error(message);
    }
  };
  return bounded as typeof fetch;
}

/** What the attempts found, for a message: "URL (HTTP 404); URL (no answer within 10 s)". */
export function attemptsText(attempts: MetadataAttempt[]): string {
  return attempts
    .map((a) => `${a.url} (${a.error ?? (a.status !== undefined ? `HTTP ${a.status}` : "not tried")})`)
    .join("; ");
}
