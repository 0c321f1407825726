import { Option } from "commander";
import { parseEnv, parseHeaders } from "../../commands/connection-flags.js";
import { durationMs } from "../../commands/duration.js";
import { positive } from "../../commands/numbers.js";
import { UsageError } from "../../commands/usage-error.js";
import type { ServerFlags } from "../served.js";

/** `mcpkit serve proxy URL` or `mcpkit serve proxy -- COMMAND [ARGS…]`: another server, served again. */
export const flags: ServerFlags = {
  description: "another MCP server (a URL, or -- and the command that starts it), served again",
  operands: "the URL of the server to front, or -- and the command that starts it",
  exposes: "the server it fronts",
  cluster: {
    refused:
      "a proxy holds its connections to the proxied server in one process (one per client session, with that server's session state, subscriptions and requests in flight), which another node cannot take over, and each node would pass the proxied server's notifications on again. Run one proxy, or run the proxied server itself as a cluster",
  },
  options: () => [
    new Option("--header <header>", 'a header for the proxied HTTP server ("Name: value", repeatable)').argParser(
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    ),
    new Option(
      "--env <KEY[=VALUE]>",
      "a variable for the proxied command; KEY alone passes ours on (repeatable; it gets only PATH, HOME and the like otherwise)",
    ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    new Option(
      "--allow-redirects",
      "follow the proxied HTTP server's redirects to another origin (without --header values)",
    ),
    new Option(
      "--shared-upstream",
      "one connection to the proxied server for every client (default: one per client session)",
    ),
    new Option("--max-list-pages <n>", "the most pages of one list read from the proxied server (default 100)"),
    new Option("--max-list-items <n>", "the most items of one list (default 10000)"),
    new Option("--max-list-bytes <n>", "the most bytes of one list (default 16777216)"),
    new Option("--list-timeout <duration>", "how long reading one list may take: 30, 30s, 2m (default 30s)"),
  ],
  async create(values, { operands }) {
    const { createProxyServer, proxyTarget } = await import("./index.js");
    const target = proxyTarget(operands);
    const header = (values.header as string[] | undefined) ?? [];
    const env = (values.env as string[] | undefined) ?? [];
    if (target.kind !== "http" && (header.length || values.allowRedirects))
      throw new UsageError(
        `${header.length ? "--header" : "--allow-redirects"} is for a proxied HTTP server (a URL), not for a command`,
      );
    if (target.kind === "http" && env.length) throw new UsageError("--env is for a proxied command, not for a URL");
    const number = (key: string, flag: string) =>
      values[key] === undefined ? undefined : positive(values[key] as string, flag);
    const mirror = {
      maxPages: number("maxListPages", "--max-list-pages"),
      maxItems: number("maxListItems", "--max-list-items"),
      maxBytes: number("maxListBytes", "--max-list-bytes"),
      timeoutMs:
        values.listTimeout === undefined ? undefined : durationMs(values.listTimeout as string, "--list-timeout"),
    };
    const proxy = await createProxyServer(target, {
      headers: parseHeaders(header),
      env: parseEnv(env),
      allowRedirects: values.allowRedirects === true,
      sharedUpstream: values.sharedUpstream === true,
      mirror: Object.fromEntries(Object.entries(mirror).filter(([, v]) => v !== undefined)),
    });
    const what = target.kind === "http" ? target.url?.href : [target.command, ...(target.args ?? [])].join(" ");
    const ended = proxy.upstreamClosed.then(
      (reason) => `the proxied server closed the connection${reason ? `: ${reason.message}` : ""}`,
    );
    return { server: proxy.server, summary: `fronting ${what}`, ended, close: () => proxy.close() };
  },
};
