import type { ServerSession } from "../../server/server-session.js";
import { createLinkedPair } from "../../transports/memory/linked-pair.js";
import { stdioClientTransport } from "../../transports/stdio/client-transport.js";
import type { Transport } from "../../transports/transport.js";
import type { ResolvedTarget } from "./server-target.js";
import { tapTransport } from "./tap.js";

/** The end of a command's stderr kept to explain a failure. */
const STDERR_TAIL = 4096;

/** A transport to the target, and what explains its failures. */
export interface OpenTransport {
  transport: Transport;
  /**
   * The last of what a command wrote to stderr ("" for other targets), once it ended (a
   * command that failed is often still writing why) or after `waitMs`.
   */
  stderr(waitMs?: number): Promise<string>;
  /** Closes what was opened for the transport besides it (the in-memory server's session). */
  after(): Promise<void>;
}

export interface OpenOptions {
  /** Where a command starts when its target names no cwd. */
  cwd?: string;
  /** Show a command's stderr instead of keeping it. */
  inheritStderr?: boolean;
}

/**
 * A client-side transport to a target, not yet started: stdio for a command (its stderr
 * kept, the last 4 KiB, to say why it failed), Streamable HTTP for a URL (loaded only
 * then), an in-memory pair for an McpServer (the server side connected at once).
 */
export async function openTransport(target: ResolvedTarget, options: OpenOptions = {}): Promise<OpenTransport> {
  if (target.kind === "server") {
    const [clientSide, serverSide] = createLinkedPair();
    const session: ServerSession = await target.server.connect(serverSide);
    return {
      transport: clientSide,
      stderr: async () => "",
      after: async () => {
        await session.closed;
      },
    };
  }
  if (target.kind === "url") {
    const { streamableHttpClientTransport } = await import("../../transports/streamable-http/client/transport.js");
    return {
      transport: streamableHttpClientTransport(target.url, { headers: target.headers }),
      stderr: async () => "",
      after: async () => {},
    };
  }
  let tail = "";
  let ended: Promise<void> = Promise.resolve();
  const cwd = target.cwd ?? options.cwd;
  const transport = stdioClientTransport({
    command: target.command,
    args: target.args,
    env: target.env,
    ...(cwd !== undefined && { cwd }),
    stderr: options.inheritStderr ? "inherit" : "pipe",
  });
  // The pipe exists once start() spawned the command: read it from then on.
  const tapped = tapTransport(transport, {
    started: () => {
      const stream = transport.stderr;
      if (!stream) return;
      ended = new Promise((resolve) => stream.once("close", () => resolve()));
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        tail = (tail + chunk).slice(-STDERR_TAIL);
      });
    },
  });
  const stderr = async (waitMs = 0) => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    return tail.trim();
  };
  return { transport: tapped, stderr, after: async () => {} };
}
