import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { type Browser, openBrowser } from "../chromium.js";
import { type Running, requireBuild, start, stopAll, until } from "../cli-call/helpers.js";

export { type Browser, openBrowser } from "../chromium.js";

/**
 * The browser a test file's tests share: opened before them (the build checked first: the
 * inspector is the built CLI) and closed after them, with every mcpkit process they
 * started. Its context is there once the tests run (a beforeAll of the file's own, made
 * after this, may use it).
 */
export function browserForTests(): Browser {
  let opened: Browser | undefined;
  beforeAll(async () => {
    requireBuild();
    opened = await openBrowser();
  }, 30_000);
  afterAll(async () => {
    await opened?.close();
    await stopAll();
  });
  return {
    get context(): BrowserContext {
      if (!opened) throw new Error("The browser opens before the tests run: use it in a test or a later beforeAll");
      return opened.context;
    },
    close: async () => opened?.close(),
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

/** `mcpkit inspect ARGS…` and a page of it in `browser`, connected (see startInspect, openInspector). */
export async function inspectInBrowser(
  browser: Browser,
  args: string[],
): Promise<{ page: Page; url: string; origin: string; inspector: Running }> {
  const started = await startInspect(args);
  return { ...started, page: await openInspector(browser.context, started.url) };
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

export const connected = (page: Page): Promise<void> => showsStatus(page, "Connected");

/** Waits until the header's status is `text` exactly (`Sign-in needed`, `Disconnected`…). */
export async function showsStatus(page: Page, text: string): Promise<void> {
  // Exactly: a text filter is a case-insensitive substring, which "Disconnected" would pass for "Connected".
  await page
    .getByTestId("status")
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

/** Resolves once the page counts at least `count` pings answered (the Server view shows the count). */
export async function pingsAnswered(page: Page, count: number): Promise<void> {
  // A function, not a string: the page's CSP forbids evaluating strings.
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="pings-answered"]')?.textContent) >= n,
    count,
    { timeout: 30_000 },
  );
}

/** The pings the page counts as answered so far (the Server view). */
export const answeredSoFar = async (page: Page) => Number(await page.getByTestId("pings-answered").textContent());

/** The page's document, for functions run in the page (the tests compile without the DOM library). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
