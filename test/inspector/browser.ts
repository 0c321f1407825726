import type { BrowserContext, Page } from "playwright-core";
import { type Running, start, until } from "../cli-call/helpers.js";

export { type Browser, openBrowser } from "../chromium.js";

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
  // Exactly: a text filter is a case-insensitive substring, which "Disconnected" would pass.
  await page
    .getByTestId("status")
    .filter({ hasText: /^Connected$/ })
    .waitFor();
}
