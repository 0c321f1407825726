import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "./errors.js";
import type { RedirectHandler } from "./types.js";

export interface LoopbackOptions {
  /** Port for the callback listener (default: any free one). */
  port?: number;
  /** Path of the callback (default "/callback"). */
  path?: string;
  /** Try to open the system browser (default true). */
  openBrowser?: boolean;
  /** Where to tell the user about the URL (default: stderr). */
  print?: (message: string) => void;
  /** How long to wait for the user, ms (default 5 minutes). */
  timeoutMs?: number;
}

/**
 * A redirect handler for command-line clients (RFC 8252 §7.3): listens on 127.0.0.1 for
 * the authorization server's redirect, shows the user the URL (and opens the browser when
 * it can), and resolves with the callback. Call `close()` when done.
 */
export async function loopbackRedirect(
  options: LoopbackOptions = {},
): Promise<{ redirectUri: string; redirect: RedirectHandler; close: () => void }> {
  const path = options.path ?? "/callback";
  let deliver: ((url: URL) => void) | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>mcpkit</title><p>Authorization finished. You can close this window.</p>");
    deliver?.(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  const print = options.print ?? ((message: string) => process.stderr.write(`${message}\n`));
  let cancel: (() => void) | undefined;
  const redirect: RedirectHandler = (authorizationUrl) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new OAuthError("authorization_timeout", "Nobody completed the authorization in the browser")),
        options.timeoutMs ?? 5 * 60_000,
      );
      deliver = (url) => {
        clearTimeout(timer);
        resolve(url);
      };
      cancel = () => {
        clearTimeout(timer);
        reject(new OAuthError("authorization_cancelled", "The authorization was cancelled: its listener closed"));
      };
      print(`Open this URL to authorize:\n  ${authorizationUrl.href}`);
      if (options.openBrowser !== false) openInBrowser(authorizationUrl.href);
    });
  /** Stops listening at once (open connections too) and fails a redirect still waiting. */
  const close = () => {
    cancel?.();
    server.close();
    server.closeAllConnections();
  };
  return { redirectUri, redirect, close };
}

function openInBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No browser: the printed URL is enough.
  }
}
