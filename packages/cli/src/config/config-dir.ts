import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where mcpkit keeps what it must remember between runs (`mcpkit call`'s registrations and
 * tokens, the GitHub server's sign-ins): $MCPKIT_CONFIG_DIR, else the XDG config folder.
 */
export function configDir(): string {
  const explicit = process.env.MCPKIT_CONFIG_DIR;
  if (explicit) return explicit;
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(xdg, "mcpkit");
}
