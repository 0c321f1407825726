import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Opens the inspector's one-time URL in the system browser without putting it on a command
 * line: the program that opens it (xdg-open, open, start) and the browser it starts show
 * their arguments to every user of the machine (`ps`, /proc), and whoever exchanges the token
 * first holds the inspector. The URL goes in a page that only this user can read (a new 0700
 * folder, a 0600 file), which sends the browser on; the command line names the page. Returns
 * how to remove it (when the inspector stops).
 */
export function openBrowser(url: string): () => void {
  const folder = mkdtempSync(join(tmpdir(), "mcpkit-inspect-"));
  const page = join(folder, "open.html");
  const href = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  writeFileSync(
    page,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${href}"><title>mcpkit inspector</title>` +
      `<p><a href="${href}">Open the inspector</a></p>\n`,
    { mode: 0o600 },
  );
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", page]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", page]
        : ["xdg-open", page];
  const failed = () => process.stderr.write("Could not open a browser: open the URL above yourself\n");
  try {
    const child = spawn(command as string, args, { stdio: "ignore", detached: true });
    child.on("error", failed);
    child.unref();
  } catch {
    failed();
  }
  return () => rmSync(folder, { recursive: true, force: true });
}
