import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { type Running, start, until } from "../cli-call/helpers.js";

/**
 * The inspector's browser tests: Debian's chromium (npm test installs it) driven by
 * playwright-core, one browser per test file, a fresh profile each time.
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

export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (npm test installs it when it can)`);
  const profile = mkdtempSync(join(tmpdir(), "mcpkit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: FLAGS,
    viewport: { width: 1280, height: 860 },
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

/** `mcpkit inspect ARGS…`: resolves once it printed the URL with its one-time token. */
export async function startInspect(args: string[]): Promise<{ url: string; origin: string; inspector: Running }> {
  const inspector = start(["inspect", ...args]);
  const printed = /^(http:\/\/127\.0\.0\.1:\d+)\/\?token=\S+$/m;
  await until(() => printed.test(inspector.stdout), 10_000, `mcpkit inspect to print its URL:\n${inspector.stderr}`);
  const [url, origin] = printed.exec(inspector.stdout) as unknown as [string, string];
  return { url, origin, inspector };
}

/** Opens the inspector's URL (exchanging the token for the cookie) and waits until it is connected. */
export async function openInspector(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  await page.goto(url);
  await connected(page);
  return page;
}

export async function connected(page: Page): Promise<void> {
  await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
}
