import { dirname, resolve } from "node:path";
import type { OpenApiDocument } from "./document.js";
import { documentFiles } from "./document-files.js";
import { documentResolver } from "./document-origin.js";
import { expandedSize } from "./expansion.js";
import { yamlParser } from "./yaml-parser.js";

/** What `validate` may expand a document to (GitHub's 1,200 operations: about 2 million). */
const MAX_EXPANDED_VALUES = 10_000_000;

/** Where a document comes from: a file path, an http(s) or file URL, or the parsed object. */
export type OpenApiSource = string | URL | Record<string, unknown>;

export interface LoadOptions {
  /**
   * Checks the document against the OpenAPI schema before use (default false: documents
   * in the wild often deviate in ways that do not matter for calling them). Validation
   * expands every reference, so a document that would expand to more than 10 million JSON
   * values is refused rather than validated.
   */
  validate?: boolean;
  /** Timeout for fetching the document and the files it references by URL, ms (default 30 000). */
  timeoutMs?: number;
  /**
   * The folder whose files a document on disk may reference (`$ref: "../common.yaml"`),
   * links followed: default the document's own folder (the current folder for a document
   * given as an object). A reference to a file elsewhere fails the load. A document
   * fetched by URL references no file.
   */
  fileRoot?: string;
}

/**
 * Reads an OpenAPI 3.0 or 3.1 document, JSON or YAML, and bundles it: references to other
 * files (and, for a document loaded from a URL, other URLs) become local ones, so the
 * rest of this entry follows `#/...` pointers only. The parser is loaded here, on first
 * use, so nothing else in mcpkit pays for it.
 */
export async function loadDocument(source: OpenApiSource, options: LoadOptions = {}): Promise<OpenApiDocument> {
  if (loaded.has(source as object)) return source as OpenApiDocument;
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  const input = source instanceof URL ? (source.protocol === "file:" ? source.pathname : source.href) : source;
  const fromUrl = typeof input === "string" && /^https?:\/\//i.test(input);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const remote = fromUrl ? documentResolver(input, timeoutMs) : undefined;
  const files = fromUrl
    ? undefined
    : documentFiles(options.fileRoot ?? (typeof input === "string" ? dirname(resolve(input)) : process.cwd()));
  const yaml = yamlParser();
  const parserOptions = {
    // YAML with its aliases bounded; no text or binary files, which no schema can be.
    parse: { yaml, text: false, binary: false },
    resolve: remote
      ? {
          external: true,
          // Every http(s) file through the address guard: its own origin as you named it,
          // other origins only where public (document-origin.ts); never this machine's files.
          remote,
          http: false,
          file: false,
        }
      : // A local document's references stay in its folder (document-files.ts).
        { external: true, http: false, file: files },
  } as const;
  let bundled: unknown;
  try {
    // The parser mutates an object it is given: hand it a copy.
    const api = typeof input === "string" ? input : structuredClone(input);
    bundled = await SwaggerParser.bundle(api as never, parserOptions as never);
    if (options.validate) {
      // Validation walks the document with every reference copied in: bounded first.
      if (expandedSize(bundled as OpenApiDocument, MAX_EXPANDED_VALUES) > MAX_EXPANDED_VALUES)
        throw new Error(
          `validate needs the document with its references expanded, and this one expands to more than ${MAX_EXPANDED_VALUES} JSON values; load it without validate`,
        );
      await SwaggerParser.validate(structuredClone(bundled) as never, parserOptions as never);
    }
  } catch (error) {
    const what = typeof input === "string" ? input : "the OpenAPI document";
    // The parser reports a plugin's failure without its message: the plugin kept it.
    const reason = remote?.failure ?? files?.failure ?? yaml.failure ?? error;
    throw new Error(`Cannot load ${what}: ${reason instanceof Error ? reason.message : String(reason)}`, {
      cause: reason,
    });
  }
  const document = bundled as OpenApiDocument;
  const version = typeof document.openapi === "string" ? document.openapi : undefined;
  if (!version || !/^3\.[01]\./.test(version)) {
    const found = version ?? ((document as { swagger?: string }).swagger ? "Swagger 2.0" : "no version");
    throw new Error(
      `Unsupported document (${found}): mcpkit/openapi reads OpenAPI 3.0 and 3.1; convert Swagger 2.0 documents first`,
    );
  }
  loaded.add(document);
  return document;
}

/** Documents this function produced: given again, they are used as they are. */
const loaded = new WeakSet<object>();
