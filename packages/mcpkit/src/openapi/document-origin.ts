/**
 * How a document named by URL, and the files it references on its own origin, are read.
 * The person who named the URL vouches for its origin, even one on this machine or a
 * private network (a local API under development); references to other origins go
 * through the parser's own HTTP resolver, which refuses internal addresses, so a document
 * cannot make this process reach into the network it runs in. A document that came over
 * HTTP never reads this machine's files (load.ts turns the file resolver off).
 */

/** The largest document or referenced file read from the document's origin. */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * A json-schema-ref-parser resolver for `documentUrl`'s origin. `failure` is why its last
 * read failed: the parser reports a resolver's failure without its message.
 */
export function originResolver(documentUrl: string, timeoutMs: number) {
  const origin = new URL(documentUrl).origin;
  const resolver = {
    // Before the parser's http (200) and file (100) resolvers.
    order: 1,
    failure: undefined as Error | undefined,
    canRead: (file: { url: string }) => originOf(file.url) === origin,
    read: (file: { url: string }) =>
      readFromOrigin(file.url, origin, timeoutMs).catch((error: Error) => {
        resolver.failure = error;
        throw error;
      }),
  };
  return resolver;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function readFromOrigin(url: string, origin: string, timeoutMs: number): Promise<Buffer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let at = url;
  for (let hops = 0; ; hops++) {
    const response = await fetch(at, { redirect: "manual", signal });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, at).href;
      // Another origin is not the one vouched for: the parser's guarded resolver, tried
      // after this one fails, follows it only where it is public.
      if (originOf(next) !== origin)
        throw new Error(`${at} redirects to another origin (${next}), which is not followed`);
      if (hops >= MAX_REDIRECTS) throw new Error(`${url} redirects more than ${MAX_REDIRECTS} times`);
      at = next;
      continue;
    }
    if (!response.ok) throw new Error(`${at} answered HTTP ${response.status}`);
    if (Number(response.headers.get("content-length") ?? 0) > MAX_BYTES) throw tooLarge(at);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_BYTES) throw tooLarge(at);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
}

const tooLarge = (url: string) => new Error(`${url} is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
