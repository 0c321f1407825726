import { fileURLToPath } from "node:url";
import { McpError } from "mcpkit";
import { createSseHandler, createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer as createMcpServer } from "mcpkit/server";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../cli-call/helpers.js";
import { browserForTests, connected, inspectInBrowser, openInspector, showsStatus, startInspect } from "./browser.js";
import { callTool, see, show } from "./scenarios.js";

// What the page says when things are not as they should be: the transport really used,
// why a stdio server died, a server that answers but cannot give its lists, and a link
// opened twice (with the way back in: Enter in the terminal prints a fresh one).

const crashServer = fileURLToPath(new URL("./fixtures/crash-server.mjs", import.meta.url));
const browser = browserForTests();
const servers: Listening[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
});

describe("the page says what is wrong", () => {
  it("labels a connection that fell back to HTTP+SSE as such", async () => {
    const sse = await listen(createSseHandler(createMcpServer({ name: "old-timer", version: "1" })));
    servers.push(sse);
    const { page } = await inspectInBrowser(browser, [new URL("/sse", sse.url).href]);
    await see(page.getByTestId("transport"), /^HTTP\+SSE \(2024-11-05\)$/);
    await show(page, "server");
    await see(page.getByTestId("transport-detail"), "HTTP+SSE");
    await page.close();
  });

  it("shows why a stdio server failed to start where the failure is shown, not only in Logs", async () => {
    const { url } = await startInspect(["--", process.execPath, crashServer, "at-start"]);
    const page = await browser.context.newPage();
    await page.goto(url);
    await showsStatus(page, "Failed");
    const lost = page.getByTestId("connection-lost");
    await see(lost, "Could not connect to the server");
    await see(lost.getByTestId("stderr-tail"), "Missing WEATHER_API_KEY: set it before starting the server");
    await page.close();
  });

  it("shows why a stdio server crashed mid-session, with the disconnection", async () => {
    const { page } = await inspectInBrowser(browser, ["--", process.execPath, crashServer]);
    await callTool(page, "crash", {});
    await showsStatus(page, "Disconnected");
    await see(page.getByTestId("stderr-tail"), "fatal: the database is locked");
    // Reconnecting starts it anew: the last words of the old process go with it.
    await page.getByRole("button", { name: "Reconnect" }).click();
    await connected(page);
    expect(await page.getByTestId("stderr-tail").count()).toBe(0);
    await page.close();
  });

  it("shows a server that answers but cannot give its lists as failing, not as a healthy empty server", async () => {
    // What mcpkit dev serves while the module has never loaded: lists answered with why.
    const failing = createMcpServer({
      name: "mcpkit-dev",
      version: "0.0.0",
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: {} },
      middleware: [
        (ctx, next) => {
          if (/\/list$/.test(ctx.method))
            throw new McpError(-32603, "src/server.ts did not load: SyntaxError: Unexpected token (3:7)");
          return next();
        },
      ],
    });
    const http = await listen(createStreamableHttpHandler(failing));
    servers.push(http);
    const { page } = await inspectInBrowser(browser, [new URL("/mcp", http.url).href]);
    const problem = page.getByTestId("server-problem");
    await see(problem, "The server is connected but failing");
    await see(problem, "tools: src/server.ts did not load: SyntaxError: Unexpected token (3:7)");
    // Said in every view, and where the list would be.
    await show(page, "tools");
    await see(page.locator(".list-pane .error"), "did not load");
    await page.close();
  });
});

describe("a link opened twice", () => {
  it("gets a page that explains, and Enter in the terminal prints a fresh link that opens", async () => {
    const sse = await listen(createStreamableHttpHandler(createMcpServer({ name: "plain", version: "1" })));
    servers.push(sse);
    const { url, origin, inspector } = await startInspect([new URL("/mcp", sse.url).href]);
    const first = await openInspector(browser.context, url);

    const again = await browser.context.newPage();
    await again.goto(url);
    await see(again.locator("h1"), "Open a fresh link to the inspector");
    await see(again.locator("body"), "Press Enter in the terminal where mcpkit inspect runs");
    // The bare address in a new tab: the browser has the cookie, but this tab has no key.
    await again.goto(`${origin}/`);
    await see(again.getByTestId("refused"), "This page cannot use the inspector");

    inspector.child.stdin?.write("\n");
    const links = () => inspector.stdout.match(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/gm) ?? [];
    await until(() => links().length === 2, 10_000, "a fresh link");
    expect(inspector.stderr).toContain("A fresh link");
    await again.goto(links()[1] as string);
    await connected(again);
    // The first page goes on working.
    await show(first, "server");
    await connected(first);
    await again.close();
    await first.close();
  });
});
