import { describe, expect, it } from "vitest";
import { externalHref } from "./link-target.js";

// Where a link from a server may take the browser: away from the inspector, over http(s).
const here = { origin: "http://127.0.0.1:41905", port: "41905", protocol: "http:" };
const target = (href: unknown) => externalHref(href, here);

describe("a server's link", () => {
  it("opens an http or https address elsewhere, as the URL parser writes it", () => {
    expect(target("https://example.com/docs?q=1")).toBe("https://example.com/docs?q=1");
    expect(target("http://127.0.0.1:3000/mcp")).toBe("http://127.0.0.1:3000/mcp");
    expect(target("HTTPS://Example.COM")).toBe("https://example.com/");
  });

  it.each([
    ["the inspector itself", "http://127.0.0.1:41905/"],
    ["its API", "http://127.0.0.1:41905/api/events"],
    ["localhost on its port", "http://localhost:41905/#key=forged"],
    ["a name under localhost", "http://app.localhost:41905/"],
    ["IPv6 loopback", "http://[::1]:41905/"],
    ["IPv4 in IPv6", "http://[::ffff:127.0.0.1]:41905/"],
    ["the short form 127.1", "http://127.1:41905/"],
    ["a decimal address", "http://2130706433:41905/"],
    ["another loopback address", "http://127.8.9.10:41905/"],
    ["0.0.0.0", "http://0.0.0.0:41905/"],
  ])("never goes to %s (%s)", (_what, href) => {
    expect(target(href)).toBeUndefined();
  });

  it.each([
    ["a relative link, which would resolve to the inspector", "/api/events"],
    ["a fragment", "#tools"],
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<p>x</p>"],
    ["file:", "file:///etc/passwd"],
    ["not a URL", "http://"],
    ["not text", 42],
  ])("is not a link when it is %s", (_what, href) => {
    expect(target(href)).toBeUndefined();
  });

  it("may go to this machine on another port (another server)", () => {
    expect(target("http://localhost:3000/")).toBe("http://localhost:3000/");
  });
});
