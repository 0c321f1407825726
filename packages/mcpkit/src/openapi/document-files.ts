import { readFile, realpath } from "node:fs/promises";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * How a document on disk reads the files it references: only those inside one folder (the
 * document's own, or `fileRoot`), judged where they really are (links followed). A document
 * someone else wrote (a vendor's, saved beside your code) could otherwise reference
 * `../../.config/gcloud/application_default_credentials.json`, `file:///home/you/.docker/config.json`
 * or any JSON or YAML file of yours, and its content would be published in a tool's schema
 * to every MCP client. A document fetched by URL reads no file at all (load.ts).
 */

/** A json-schema-ref-parser resolver for files under `root`; `failure` is why its last read failed. */
export function documentFiles(root: string) {
  let realRoot: Promise<string> | undefined;
  const resolver = {
    // Where the parser's own file resolver stands, which it replaces.
    order: 100,
    failure: undefined as Error | undefined,
    canRead: (file: { url: string }) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(file.url) || /^file:/i.test(file.url),
    read: async (file: { url: string }) => {
      try {
        const path = filePath(file.url);
        realRoot ??= realpath(root);
        const [real, within] = await Promise.all([realpath(path), realRoot]);
        if (real !== within && !real.startsWith(within.endsWith(sep) ? within : within + sep))
          throw new Error(
            `${path} is outside ${root}: a document's references stay in its folder (fileRoot names another); not read`,
          );
        return await readFile(real);
      } catch (error) {
        resolver.failure = error as Error;
        throw error;
      }
    },
  };
  return resolver;
}

/** The path a reference names: a file URL, or a path the parser percent-encoded. */
function filePath(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  // A bare "%" is a character of the name, not an escape.
  return decodeURIComponent(url.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
}
