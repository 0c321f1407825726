import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/**
 * The one way browser tests get a browser: Debian's chromium (npm test installs it with
 * apt-get when missing) driven by playwright-core, headless, a fresh profile each time.
 * Open one per test file and reuse it: starting chromium is the slow part.
 */
export const CHROMIUM = "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function openBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (npm test installs it when it can)`);
  const profile = mkdtempSync(join(tmpdir(), "mcpkit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: FLAGS,
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
