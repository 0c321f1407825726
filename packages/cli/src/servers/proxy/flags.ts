import { Option } from "commander";
import { UsageError } from "../../commands/usage-error.js";
import type { ServerFlags } from "../served.js";

/** `mcpkit serve proxy URL` or `mcpkit serve proxy -- COMMAND [ARGS…]`: another server, served again. */
export const flags: ServerFlags = {
  description: "another MCP server (a URL, or -- and the command that starts it), served again",
  operands: "the URL of the server to front, or -- and the command that starts it",
  exposes: "the server it fronts",
  options: () => [
    new Option("--header <header>", 'a header for the proxied HTTP server ("Name: value", repeatable)').argParser(
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    ),
  ],
  async create(values, { operands }) {
    const { createProxyServer, parseHeaders, proxyTarget } = await import("./index.js");
    const target = proxyTarget(operands);
    const header = (values.header as string[] | undefined) ?? [];
    if (header.length && target.kind !== "http")
      throw new UsageError("--header is for a proxied HTTP server (a URL), not for a command");
    const proxy = await createProxyServer(target, parseHeaders(header));
    const what = target.kind === "http" ? target.url?.href : [target.command, ...(target.args ?? [])].join(" ");
    const ended = proxy.upstreamClosed.then(
      (reason) => `the proxied server closed the connection${reason ? `: ${reason.message}` : ""}`,
    );
    return { server: proxy.server, summary: `fronting ${what}`, ended, close: () => proxy.close() };
  },
};
