import { createProxy, type McpProxy } from "mcpkit/compose";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { UsageError } from "../../commands/usage-error.js";
import { VERSION } from "../../version.js";

export interface ProxyTarget {
  kind: "http" | "stdio";
  url?: URL;
  command?: string;
  args?: string[];
}

/** `<url>` or `-- <command> [args…]`: what `mcpkit serve proxy` fronts. */
export function proxyTarget(operands: string[]): ProxyTarget {
  const [first, ...rest] = operands;
  if (first === undefined)
    throw new UsageError(
      "serve proxy needs the server to front: a URL, or -- and a command (mcpkit serve proxy -- npx some-server)",
    );
  if (/^https?:\/\//i.test(first)) {
    if (rest.length > 0)
      throw new UsageError(`serve proxy takes one URL, or -- and a command; not also "${rest.join(" ")}"`);
    try {
      return { kind: "http", url: new URL(first) };
    } catch {
      throw new UsageError(`"${first}" is not a valid URL`);
    }
  }
  return { kind: "stdio", command: first, args: rest };
}

/**
 * Connects to the target and serves it again. A stdio server's stderr is passed through:
 * it is where such servers explain themselves.
 */
export async function createProxyServer(target: ProxyTarget, headers: Record<string, string>): Promise<McpProxy> {
  const transport =
    target.kind === "http"
      ? streamableHttpClientTransport(target.url as URL, { headers })
      : stdioClientTransport({ command: target.command as string, args: target.args ?? [], stderr: "inherit" });
  return createProxy(transport, { client: { name: "mcpkit-proxy", version: VERSION } });
}

/** `--header "Name: value"` values as headers. */
export function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", not "${value}"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}
