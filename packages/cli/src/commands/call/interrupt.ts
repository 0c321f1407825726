import { EXIT, Interrupted } from "./exit-codes.js";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The first Ctrl+C (or SIGTERM, or the terminal closing) aborts: a request under way is
 * cancelled on the server, a stdio server is shut down, and the command exits 130 (watch
 * exits 0: Ctrl+C is how it ends). A second one exits at once.
 */
export function onInterrupt(controller: AbortController): () => void {
  const handler = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort(new Interrupted());
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, handler);
  };
}
