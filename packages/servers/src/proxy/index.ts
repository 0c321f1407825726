import { createProxy, type McpProxy } from "mcpkit/compose";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import type { ServerHandle } from "../handle.js";
import { UsageError } from "../options/usage-error.js";
import { VERSION } from "../version.js";
import type { ProxyCommand, ProxyOptions } from "./options.js";

export type { ServerHandle } from "../handle.js";
export { type ProxyCommand, type ProxyOptions, proxyOptions } from "./options.js";

export interface ProxyServer extends ServerHandle {
  /** The proxy itself: its client of the shared upstream connection, `refresh()`. */
  proxy: McpProxy;
  /** Resolves with why, when the proxied server closed the connection: the proxy cannot go on. */
  ended: Promise<string>;
  /** Closes the proxy's sessions, then its upstream connections (a proxied command's process ends with its connection). */
  close(): Promise<void>;
}

/** The server to front, as `mcpkit serve proxy` takes it: `<url>`, or `-- <command> [args…]`. */
export function proxyTarget(operands: readonly string[]): URL | ProxyCommand {
  const [first, ...rest] = operands;
  if (first === undefined)
    throw new UsageError(
      "serve proxy needs the server to front: a URL, or -- and a command (mcpkit serve proxy -- npx some-server)",
    );
  if (/^https?:\/\//i.test(first)) {
    if (rest.length > 0)
      throw new UsageError(`serve proxy takes one URL, or -- and a command; not also "${rest.join(" ")}"`);
    try {
      return new URL(first);
    } catch {
      throw new UsageError(`"${first}" is not a valid URL`);
    }
  }
  return { command: first, args: rest };
}

/**
 * Connects to the target and serves it again: each legacy session downstream gets its own
 * connection upstream (a process of its own for a command), unless `sharedUpstream`. A
 * stdio server's stderr is passed through: it is where such servers explain themselves.
 *
 * ```ts
 * const { server, close } = await proxyServer({ target: { command: "npx", args: ["some-server"] } });
 * hub.mount("some", server);
 * ```
 */
export async function proxyServer(options: ProxyOptions): Promise<ProxyServer> {
  const target = typeof options.target === "string" ? new URL(options.target) : options.target;
  const headers = options.headers ?? {};
  if (!(target instanceof URL) && (Object.keys(headers).length > 0 || options.allowRedirects))
    throw new UsageError(
      `${Object.keys(headers).length > 0 ? "--header" : "--allow-redirects"} is for a proxied HTTP server (a URL), not for a command`,
    );
  if (target instanceof URL && options.env && Object.keys(options.env).length > 0)
    throw new UsageError("--env is for a proxied command, not for a URL");
  const connect = () =>
    target instanceof URL
      ? streamableHttpClientTransport(target, {
          headers,
          redirects: options.allowRedirects ? "any" : "same-origin",
        })
      : stdioClientTransport({
          command: target.command,
          args: target.args ?? [],
          stderr: "inherit",
          ...(options.env && { env: options.env }),
        });
  const mirror = {
    ...(options.maxListPages !== undefined && { maxPages: options.maxListPages }),
    ...(options.maxListItems !== undefined && { maxItems: options.maxListItems }),
    ...(options.maxListBytes !== undefined && { maxBytes: options.maxListBytes }),
    ...(options.listTimeoutMs !== undefined && { timeoutMs: options.listTimeoutMs }),
  };
  const proxy = await createProxy(connect, {
    client: { name: "mcpkit-proxy", version: VERSION },
    upstreamSessions: options.sharedUpstream ? "shared" : "per-session",
    mirror,
    ...(options.maxUpstreams !== undefined && { maxUpstreams: options.maxUpstreams }),
  });
  const what = target instanceof URL ? target.href : [target.command, ...(target.args ?? [])].join(" ");
  return {
    server: proxy.server,
    proxy,
    summary: `fronting ${what}`,
    ended: proxy.upstreamClosed.then(
      (reason) => `the proxied server closed the connection${reason ? `: ${reason.message}` : ""}`,
    ),
    close: () => proxy.close(),
  };
}
