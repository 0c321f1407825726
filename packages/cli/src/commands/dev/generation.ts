import { createProxy, type McpProxy } from "mcpkit/compose";
import { stdioClientTransport } from "mcpkit/stdio";
import { MCPKIT_BIN } from "../../self.js";
import { VERSION } from "../../version.js";

/** One loaded version of the user's module: a child process serving it, and the proxy that reaches it. */
export interface Generation {
  proxy: McpProxy;
  /** Counts of what it offers, for the terminal. */
  counts: { tools: number; resources: number; prompts: number };
}

/** The module did not load (or the child process serving it failed): what it said on stderr. */
export class LoadFailure extends Error {
  override name = "LoadFailure";
}

const STDERR_KEPT = 16_384;

/**
 * Starts `mcpkit serve MODULE --stdio` in a child process (MODULE: JavaScript, compiled
 * already when the source is TypeScript) and connects a proxy to it. The child's stderr
 * (the module's own logs) is passed through as it comes; if the child fails before it is
 * ready, the error carries what it wrote. A fresh process per version: no state, timer or
 * open handle of an old version survives a reload.
 */
export async function startGeneration(module: string, onStderr: (text: string) => void): Promise<Generation> {
  const transport = stdioClientTransport({
    command: process.execPath,
    args: ["--enable-source-maps", MCPKIT_BIN, "serve", module, "--stdio"],
    stderr: "pipe",
    // The module sees the variables of the one who runs mcpkit dev, as `mcpkit serve` would.
    inheritEnv: Object.keys(process.env),
  });
  let stderr = "";
  let ready = false;
  const connecting = createProxy(transport, { client: { name: "mcpkit-dev", version: VERSION } });
  transport.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    if (ready) onStderr(chunk);
    else stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  try {
    const proxy: McpProxy = await connecting;
    const listed = proxy.server.definitions();
    const counts = {
      tools: listed.tools.length,
      resources: listed.resources.length + listed.resourceTemplates.length,
      prompts: listed.prompts.length,
    };
    ready = true;
    if (stderr) onStderr(stderr);
    return { proxy, counts };
  } catch (error) {
    // The child's last words may still be in the pipe when the exit is reported.
    await new Promise<void>((resolve) => {
      if (!transport.stderr || transport.stderr.closed) resolve();
      else transport.stderr.once("close", () => resolve());
      setTimeout(resolve, 500).unref();
    });
    throw new LoadFailure(stderr.trim() || (error as Error).message);
  }
}
