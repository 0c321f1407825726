import { FetchFailed } from "../address-guard/lookup.js";
import { guardedRequest } from "../address-guard/request.js";

/**
 * How a document named by URL, and every file it references over HTTP, are read: one
 * resolver for all of them (the parser's own HTTP resolver is off). The person who named
 * the URL vouches for its origin, even one on this machine or a private network (a local
 * API under development), and for that origin's redirects; everything the document names
 * on another origin, and every redirect to one, goes through the address guard: the name
 * resolved, refused unless every address is global unicast, and the connection pinned to
 * the address judged. A document that came over HTTP never reads this machine's files
 * (load.ts turns the file resolver off).
 */

/** The largest document or referenced file read. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * A json-schema-ref-parser resolver for a document at `documentUrl`. `failure` is why its
 * last read failed: the parser reports a resolver's failure without its message.
 */
export function documentResolver(documentUrl: string, timeoutMs: number) {
  const origin = new URL(documentUrl).origin;
  const resolver = {
    // Before the parser's file resolver (100), which is off for such documents anyway.
    order: 1,
    failure: undefined as Error | undefined,
    canRead: (file: { url: string }) => /^https?:\/\//i.test(file.url),
    read: async (file: { url: string }) => {
      try {
        const answer = await guardedRequest(new URL(file.url), {
          trusted: (url) => url.origin === origin,
          headers: { accept: "application/json, application/yaml;q=0.9, */*;q=0.8" },
          redirects: MAX_REDIRECTS,
          maxBytes: MAX_FILE_BYTES,
          timeoutMs,
        });
        if (answer.status < 200 || answer.status > 299)
          throw new FetchFailed(`${answer.url.href} answered HTTP ${answer.status}`);
        return answer.body;
      } catch (error) {
        resolver.failure = error as Error;
        throw error;
      }
    },
  };
  return resolver;
}
