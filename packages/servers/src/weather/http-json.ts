import { ProviderError } from "./provider.js";

/** The most a weather answer may weigh; a larger one is refused rather than read. */
const MAX_BYTES = 1024 * 1024;

/**
 * GETs `url` and parses its JSON body, within `timeoutMs` and MAX_BYTES. Every failure
 * is a ProviderError naming `service` and what to do; `errorReason` reads the service's
 * own reason out of an error body.
 */
export async function getJson(
  url: URL,
  options: {
    service: string;
    timeoutMs: number;
    signal?: AbortSignal;
    fetch?: typeof fetch;
    errorReason?: (body: unknown) => string | undefined;
  },
): Promise<unknown> {
  const { service, timeoutMs } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    response = await (options.fetch ?? fetch)(url, { signal, headers: { accept: "application/json" } });
    body = await readLimited(response, service);
  } catch (error) {
    if (timeout.aborted)
      throw new ProviderError(`${service} did not answer within ${timeoutMs / 1000} s; try again later.`);
    if (options.signal?.aborted) throw error;
    if (error instanceof ProviderError) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(
      `Could not reach ${service} at ${url.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const reason = ((parsed !== undefined && options.errorReason?.(parsed)) || response.statusText).replace(/\.$/, "");
    const what =
      response.status === 429
        ? `${service} refused: too many requests (HTTP 429)${reason ? `: ${reason}` : ""}. Try again later.`
        : response.status >= 500
          ? `${service} failed (HTTP ${response.status})${reason ? `: ${reason}` : ""}. Try again later.`
          : `${service} refused the request (HTTP ${response.status})${reason ? `: ${reason}` : ""}.`;
    throw new ProviderError(what);
  }
  if (parsed === undefined) throw new ProviderError(`${service} answered with something that is not JSON.`);
  return parsed;
}

async function readLimited(response: Response, service: string): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_BYTES) {
    await response.body?.cancel();
    throw new ProviderError(`${service} answered with more than ${MAX_BYTES} bytes; refused.`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_BYTES) throw new ProviderError(`${service} answered with more than ${MAX_BYTES} bytes; refused.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
