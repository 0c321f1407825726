import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStreamableHttpHandler, type Listening, listen, type StreamableHttpHandler } from "mcpkit/http";
import { appTool, appView, createServer as createMcpServer } from "mcpkit/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Inspector, startInspector } from "../../packages/cli/src/inspector/index.js";
import { type Browser, connected, openBrowser, openInspector } from "./browser.js";
import { see, show } from "./scenarios.js";

// The attack of issue 34, replayed: a link in a server's content takes the browser to a
// server on another port of 127.0.0.1, which receives the inspector's cookie (cookies
// ignore ports). With it, and a forged Origin, it tries to drive the inspector. The
// cookie alone drives nothing: every API request needs the key only the page holds.

let browser: Browser;
let inspector: Inspector;
let page: Page;
let mcp: Listening;
let thief: Server;
let thiefOrigin: string;
const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
const folder = mkdtempSync(join(tmpdir(), "mcpkit-hijack-"));
const marker = join(folder, "spawned");

/** The inspector's own address, however it is spelled: none of these may be a link. */
const ownAddresses = (port: number) => [
  `http://127.0.0.1:${port}/`,
  `http://localhost:${port}/#key=forged`,
  `http://[::1]:${port}/api/events`,
  `http://127.1:${port}/`,
  `http://2130706433:${port}/`,
  "/api/events",
  "javascript:history.back",
  "data:text/html,<p>x</p>",
];

/**
 * An MCP App view whose button asks its host to open each URL it was given, as ui/open-link
 * requests: on a click, as a view does (the browser opens a new tab only on a person's gesture).
 */
const linkingView = (urls: string[]) => `<!doctype html><meta charset="utf-8"><body>
<button id="open">Open the links</button><script>
  const urls = ${JSON.stringify(urls)};
  document.getElementById("open").onclick = () =>
    urls.forEach((url, n) => parent.postMessage({ jsonrpc: "2.0", id: 100 + n, method: "ui/open-link", params: { url } }, "*"));
</script></body>`;

beforeAll(async () => {
  thief = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    // Cookies ignore ports: one set here is the inspector's too, and with a longer path it is sent first.
    const toss = req.url === "/toss" ? { "set-cookie": "mcpkit_inspector=planted; Path=/api; HttpOnly" } : {};
    res
      .writeHead(200, { "content-type": "text/html", ...toss })
      .end("<!doctype html><title>elsewhere</title><p>elsewhere</p>");
  });
  await new Promise<void>((resolve) => thief.listen(0, "127.0.0.1", resolve));
  thiefOrigin = `http://127.0.0.1:${(thief.address() as AddressInfo).port}`;

  // The MCP server names the inspector's address in its content, so it is made once that is known.
  let handler: StreamableHttpHandler | undefined;
  mcp = await listen({
    fetch: (req) => (handler ? handler.fetch(req) : Promise.resolve(new Response(null, { status: 503 }))),
    close: async () => handler?.close(),
  });
  const mcpUrl = new URL("/mcp", mcp.url).href;
  inspector = await startInspector({
    target: { kind: "http", url: mcpUrl, headers: { "X-Api-Key": "cli-secret" } },
    allowSpawn: ["node"],
  });
  const own = ownAddresses(inspector.port);
  const server = createMcpServer({
    name: "linker",
    version: "1",
    websiteUrl: `http://localhost:${inspector.port}/`,
    instructions: [`Read [the docs](${thiefOrigin}/docs) first.`, ...own.map((url, n) => `- [own ${n}](${url})`)].join(
      "\n",
    ),
  });
  appView(server, "ui://linker/view", { name: "links" }, () => linkingView([`${thiefOrigin}/from-app`, ...own]));
  appTool(server, "show_links", { input: z.object({}), ui: { resourceUri: "ui://linker/view" } }, () => "shown");
  handler = createStreamableHttpHandler(server);
  await inspector.session.connect();

  browser = await openBrowser();
  page = await openInspector(browser.context, inspector.url);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await mcp?.close();
  thief?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A request from outside the browser, as the thief makes it: the inspector's Host, and any Origin it likes. */
function replay(path: string, cookie: string, body?: unknown): Promise<number> {
  const origin = `http://127.0.0.1:${inspector.port}`;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: inspector.port,
        path,
        method: body === undefined ? "GET" : "POST",
        headers: { host: `127.0.0.1:${inspector.port}`, origin, cookie, "content-type": "application/json" },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("a link in a server's content", () => {
  it("opens outside the inspector, with no opener and no referrer", async () => {
    await show(page, "server");
    const link = page.locator(".markdown a", { hasText: "the docs" });
    expect(await link.getAttribute("target")).toBe("_blank");
    expect((await link.getAttribute("rel"))?.split(" ")).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
    const [opened] = await Promise.all([browser.context.waitForEvent("page"), link.click()]);
    await opened.waitForURL(`${thiefOrigin}/docs`);
    expect(await opened.evaluate("window.opener")).toBeNull();
    const visit = seen.find((r) => r.url === "/docs");
    expect(visit?.headers.referer).toBeUndefined();
    await opened.close();
  });

  it("carries the inspector's cookie to the other port, and with it nothing can be driven", async () => {
    // The premise of the attack: the browser sends the cookie to every port of 127.0.0.1.
    const stolen = String(seen.find((r) => r.url === "/docs")?.headers.cookie);
    expect(stolen).toMatch(/mcpkit_inspector=/);
    const attempts: [string, unknown][] = [
      ["/api/tools/list", {}],
      ["/api/tools/call", { name: "show_links", arguments: {} }],
      [
        "/api/connect",
        { command: "node", args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`] },
      ],
      ["/api/connect", { url: `${thiefOrigin}/mcp` }],
      ["/api/events", undefined],
    ];
    for (const [path, body] of attempts) expect([path, await replay(path, stolen, body)]).toEqual([path, 401]);
    // Nothing moved: the same server, no command started, and nothing reached the thief's port as MCP.
    expect(inspector.session.target).toMatchObject({ kind: "http", url: new URL("/mcp", mcp.url).href });
    expect(inspector.session.status).toBe("connected");
    expect(existsSync(marker)).toBe(false);
    expect(seen.filter((r) => r.url === "/mcp")).toEqual([]);
  });

  it("is never a link to the inspector itself, however its address is spelled", async () => {
    await show(page, "server");
    const instructions = page.locator(".card", { hasText: "Instructions" });
    for (const [n, url] of ownAddresses(inspector.port).entries()) {
      const text = instructions.locator("[data-refused-link]", { hasText: `own ${n}` });
      expect(await text.getAttribute("title")).toBe(url);
    }
    // The one link that stays is the thief's: the others are text.
    expect(await instructions.locator("a").count()).toBe(1);
    await see(page.locator(".facts-list [data-refused-link]"), `http://localhost:${inspector.port}/`);
  });

  it("from an MCP App (ui/open-link) opens outside too, and never the inspector", async () => {
    await show(page, "apps");
    await page.click('.list-pane [data-tool="show_links"]');
    await page.getByRole("button", { name: "Call and render" }).click();
    const frame = page.frameLocator('iframe[title="App view of show_links"]');
    const [opened] = await Promise.all([browser.context.waitForEvent("page"), frame.locator("#open").click()]);
    await opened.waitForURL(`${thiefOrigin}/from-app`);
    expect(await opened.evaluate("window.opener")).toBeNull();
    expect(seen.find((r) => r.url === "/from-app")?.headers.referer).toBeUndefined();
    await opened.close();
    // Each of the inspector's own addresses is refused to the view, in the list of its messages.
    const log = page.locator(".app-log");
    for (const n of ownAddresses(inspector.port).keys()) await see(log, `error #${100 + n + 1}`);
    await see(log, "result #100");
  });
});

describe("a cookie planted by a page on another port (cookie tossing)", () => {
  it("does not lock the person out: the inspector's own cookie still counts beside it", async () => {
    const other = await browser.context.newPage();
    await other.goto(`${thiefOrigin}/toss`);
    await other.close();
    const sent = await browser.context.cookies(`http://127.0.0.1:${inspector.port}/api/events`);
    expect(sent.filter((c) => c.name === "mcpkit_inspector").map((c) => c.value)).toContain("planted");
    await page.reload();
    await connected(page);
    // A fresh link opens too.
    const fresh = await openInspector(browser.context, inspector.freshUrl());
    await fresh.close();
  });
});
