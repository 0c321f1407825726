import { createInterface } from "node:readline";
import type { Transport, TransportSink } from "mcpkit";
import type { UpstreamConnector } from "mcpkit/compose";
import { sseClientTransport, streamableHttpClientTransport } from "mcpkit/http-client";
import { type StdioClientTransport, stdioClientTransport } from "mcpkit/stdio";
import type { UpstreamConfig } from "../config/types.js";
import { caller } from "./caller.js";
import { personToken, tokenHeader } from "./person-token.js";

export interface ConnectorOptions {
  /** Where the upstream's stderr lines go (the gateway's log), each prefixed with its name. */
  log: (line: string) => void;
  /** Told of each stdio process started, for the exit reasons of the calls it served. */
  onProcess?: (transport: StdioClientTransport) => void;
}

/**
 * Opens connections to one upstream as its configuration says: a process for a stdio
 * server (its environment from `env`, `envFile` and, per session, the person's token),
 * an HTTP session for a URL (its headers, and the person's token in the header named,
 * computed for each request so it is the current one).
 */
export function connectorFor(config: UpstreamConfig, options: ConnectorOptions): UpstreamConnector {
  const { target, token, name } = config;
  if (target.transport !== "stdio") {
    const headers = async () => {
      // The person whose call this request carries; none for the gateway's own readings of the lists.
      const auth = caller.getStore()?.auth;
      if (!token || auth === undefined) return target.headers;
      return { ...target.headers, ...tokenHeader(token, await personToken(auth, name, token)) };
    };
    return () =>
      target.transport === "sse"
        ? sseClientTransport(target.url, { headers })
        : streamableHttpClientTransport(target.url, { headers });
  }
  const start = (env: Record<string, string>) => {
    const transport = stdioClientTransport({
      command: target.command,
      args: target.args,
      env: { ...target.env, ...env },
      cwd: target.cwd,
      stderr: "pipe",
    });
    return transport;
  };
  const watch = (transport: StdioClientTransport) => {
    const stderr = transport.stderr;
    if (stderr) createInterface({ input: stderr }).on("line", (line) => options.log(`[${name}] ${line}`));
    options.onProcess?.(transport);
  };
  if (!token?.env) return () => started(start({}), watch);
  const variable = token.env;
  return () => {
    // A session's own process: started with the person's token in its environment.
    const auth = caller.getStore()?.auth;
    if (auth === undefined) return started(start({}), watch);
    return deferred("stdio", async () => started(start({ [variable]: await personToken(auth, name, token) }), watch));
  };
}

/** A stdio transport that reports its process once started. */
function started(transport: StdioClientTransport, watch: (t: StdioClientTransport) => void): Transport {
  return {
    binding: "stdio",
    async start(sink: TransportSink) {
      await transport.start(sink);
      watch(transport);
    },
    send: (message, sendOptions) => transport.send(message, sendOptions),
    unanswered: (id) => transport.unanswered?.(id),
    close: () => transport.close(),
  };
}

/** A transport made once something it needs is known (a token fetched); made when started. */
function deferred(binding: "stdio", make: () => Promise<Transport>): Transport {
  let inner: Transport | undefined;
  let closed = false;
  return {
    binding,
    async start(sink) {
      inner = await make();
      if (closed) {
        await inner.close();
        throw new Error("The connection was closed before it opened");
      }
      await inner.start(sink);
    },
    send(message, sendOptions) {
      if (!inner) throw new Error("The connection is not open yet");
      inner.send(message, sendOptions);
    },
    unanswered: (id) => inner?.unanswered?.(id),
    async close() {
      closed = true;
      await inner?.close();
    },
  };
}
