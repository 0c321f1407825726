import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { connectInMemory } from "mcpkit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { everythingServer } from "../everything/index.js";
import { UsageError } from "../options/usage-error.js";
import { proxyServer, proxyTarget } from "./index.js";

// The factory, in this process, fronting a server on a loopback port: what it serves, and
// that close() ends its connections upstream. test/compose tests the proxy itself.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The everything server over Streamable HTTP, on the legacy revisions (a session per connection). */
async function upstream() {
  const { server } = everythingServer({ serverOptions: { revisions: ["2025-11-25"] } });
  const listening = await listen(createStreamableHttpHandler(server));
  closers.push(() => listening.close());
  return { server, url: new URL("/mcp", listening.url) };
}

/** Waits for `done`, a turn of the event loop at a time. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turns = 0; !done(); turns++) {
    if (turns > 10_000) throw new Error(`Never happened: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("proxyServer", () => {
  it("serves the tools of the server it fronts, and says which", async () => {
    const { url } = await upstream();
    const proxy = await proxyServer({ target: url.href });
    closers.push(() => proxy.close());
    expect(proxy.summary).toBe(`fronting ${url.href}`);
    const { client, close } = await connectInMemory(proxy.server);
    closers.push(close);
    expect((await client.tools()).map((t) => t.name)).toContain("echo");
    const echoed = await client.callTool("echo", { text: "through" });
    expect(JSON.stringify(echoed.content)).toContain("through");
  });

  it("ends its session upstream on close(), and says the proxied server is gone", async () => {
    const { server, url } = await upstream();
    const proxy = await proxyServer({ target: url, sharedUpstream: true });
    expect(server.sessions.size).toBe(1);
    await proxy.close();
    await until(() => server.sessions.size === 0, "the upstream session to end");
    expect(await proxy.ended).toBe("the proxied server closed the connection");
  });

  it("refuses HTTP options for a command, and variables for a URL", async () => {
    await expect(proxyServer({ target: { command: "node" }, headers: { A: "b" } })).rejects.toThrow(
      new UsageError("--header is for a proxied HTTP server (a URL), not for a command"),
    );
    await expect(proxyServer({ target: "http://127.0.0.1:9/mcp", env: { A: "1" } })).rejects.toThrow(
      "--env is for a proxied command, not for a URL",
    );
  });
});

describe("the proxy's target on a command line", () => {
  it("is a URL, or a command and its arguments", () => {
    expect(proxyTarget(["https://example.com/mcp"])).toEqual(new URL("https://example.com/mcp"));
    expect(proxyTarget(["npx", "some-server", "--flag"])).toEqual({ command: "npx", args: ["some-server", "--flag"] });
  });

  it("is refused when missing, doubled or not a URL", () => {
    expect(() => proxyTarget([])).toThrow(/serve proxy needs the server to front/);
    expect(() => proxyTarget(["https://a/mcp", "more"])).toThrow(/takes one URL, or -- and a command; not also "more"/);
    expect(() => proxyTarget(["http://[bad"])).toThrow('"http://[bad" is not a valid URL');
  });
});
