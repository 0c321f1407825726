import { describeOptions, type OptionValues } from "../options/describe.js";

/** The proxy's options: `mcpkit serve proxy`'s flags, docs/composition.md's table. */
export const proxyOptions = describeOptions({
  headers: {
    type: "headers",
    flag: "--header",
    help: 'a header for the proxied HTTP server, "Name: value" (never sent to another origin)',
  },
  env: {
    type: "variables",
    help: "a variable for the proxied command; KEY alone passes ours on (it gets only PATH, HOME and the like otherwise)",
  },
  allowRedirects: {
    type: "switch",
    help: "follow the proxied HTTP server's redirects to another origin (without --header values)",
  },
  sharedUpstream: {
    type: "switch",
    help: "one connection to the proxied server for every client (default: one per client session)",
  },
  maxUpstreams: {
    type: "number",
    help: "the proxied server's processes (or connections) at once when there is one per client session, the one reading its lists included; at the cap the least recently used idle one is stopped (its client starts a new session), and while all are busy a new session gets 503",
    default: 16,
  },
  maxListPages: { type: "number", help: "the most pages of one list read from the proxied server", default: 100 },
  maxListItems: { type: "number", help: "the most items of one list", default: 10_000 },
  maxListBytes: { type: "number", help: "the most bytes of one list", default: 16 * 1024 * 1024 },
  listTimeoutMs: {
    type: "duration",
    flag: "--list-timeout",
    help: "how long reading one list may take: 30, 30s, 2m",
    default: 30_000,
  },
});

/** A command that starts the server to front, and its arguments. */
export interface ProxyCommand {
  command: string;
  args?: string[];
}

/** What `proxyServer` takes: the server to front, and the options above. */
export interface ProxyOptions extends OptionValues<typeof proxyOptions> {
  /** The server to front: its Streamable HTTP URL, or the command that starts it (stdio). */
  target: string | URL | ProxyCommand;
}
