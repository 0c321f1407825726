import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Root } from "mcpkit";

/**
 * The connection flags every command that reaches a server shares (`call`, `inspect`,
 * `serve proxy`): `-H/--header "Name: value"` for HTTP and `-e/--env KEY[=VALUE]` for stdio
 * are read by @mcpkit/servers/options' parseHeaders and parseEnv; `--root PATH|URI` for the
 * roots a client offers, here.
 */

/** `--root`: a path (made absolute, as a file: URI named by the path) or a URI as it is. */
export function rootFor(value: string): Root {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { uri: value };
  const path = resolve(value);
  return { uri: pathToFileURL(path).href, name: path };
}
