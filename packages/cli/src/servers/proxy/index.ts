import { createProxy, type McpProxy, type MirrorLimits } from "mcpkit/compose";
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

export interface ProxyServerOptions {
  /** --header: for the proxied HTTP server only (never sent to another origin). */
  headers: Record<string, string>;
  /** --env: variables for the proxied command, beside the inherited allowlist. */
  env?: Record<string, string>;
  /** --allow-redirects: follow the HTTP server's redirects to another origin. */
  allowRedirects?: boolean;
  /** --shared-upstream: one upstream connection for every caller. */
  sharedUpstream?: boolean;
  mirror?: MirrorLimits;
}

/**
 * Connects to the target and serves it again: each legacy session downstream gets its own
 * connection upstream (a process of its own for a command), unless --shared-upstream. A
 * stdio server's stderr is passed through: it is where such servers explain themselves.
 */
export async function createProxyServer(target: ProxyTarget, options: ProxyServerOptions): Promise<McpProxy> {
  const connect = () =>
    target.kind === "http"
      ? streamableHttpClientTransport(target.url as URL, {
          headers: options.headers,
          redirects: options.allowRedirects ? "any" : "same-origin",
        })
      : stdioClientTransport({
          command: target.command as string,
          args: target.args ?? [],
          stderr: "inherit",
          ...(options.env && { env: options.env }),
        });
  return createProxy(connect, {
    client: { name: "mcpkit-proxy", version: VERSION },
    upstreamSessions: options.sharedUpstream ? "shared" : "per-session",
    ...(options.mirror && { mirror: options.mirror }),
  });
}
