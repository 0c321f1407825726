import { describe, expect, it } from "vitest";
import { AppViews, viewCsp } from "../../packages/cli/src/inspector/app-views.js";

// MCP Apps (ext-apps 2026-01-26 §UI Resource Format, Host Behavior): a view runs under the
// CSP its resource declares, the restrictive default when it declares none, never looser.

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `));

describe("an app view's Content-Security-Policy", () => {
  it("is the extension's restrictive default when the view declares nothing, in an opaque-origin sandbox", () => {
    const csp = viewCsp(undefined);
    expect(directive(csp, "default-src")).toBe("default-src 'none'");
    expect(directive(csp, "connect-src")).toBe("connect-src 'none'");
    expect(directive(csp, "frame-src")).toBe("frame-src 'none'");
    expect(directive(csp, "base-uri")).toBe("base-uri 'self'");
    expect(directive(csp, "object-src")).toBe("object-src 'none'");
    expect(directive(csp, "img-src")).toBe("img-src 'self' data: blob:");
    // No allow-same-origin: the view can reach neither the inspector's cookie nor its API.
    expect(directive(csp, "sandbox")).toBe("sandbox allow-scripts allow-forms");
  });

  it("opens exactly the origins the view declares", () => {
    const csp = viewCsp({
      connectDomains: ["https://api.example.com", "wss://live.example.com"],
      resourceDomains: ["https://*.cdn.example.com"],
      frameDomains: ["https://www.youtube.com"],
      baseUriDomains: ["https://base.example.com"],
    });
    expect(directive(csp, "connect-src")).toBe("connect-src https://api.example.com wss://live.example.com");
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'unsafe-inline' https://*.cdn.example.com");
    expect(directive(csp, "frame-src")).toBe("frame-src https://www.youtube.com");
    expect(directive(csp, "base-uri")).toBe("base-uri https://base.example.com");
  });

  it("drops whatever would loosen it: wildcards, schemes, keywords, and smuggled directives", () => {
    const csp = viewCsp({
      connectDomains: ["*", "https:", "data:", "'unsafe-eval'", "https://ok.example.com; script-src *", 42],
      resourceDomains: "https://not-a-list.example.com",
    });
    expect(directive(csp, "connect-src")).toBe("connect-src 'none'");
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'unsafe-inline'");
    expect(csp.split("; ").filter((d) => d.startsWith("script-src"))).toHaveLength(1);
  });
});

describe("the views the page renders", () => {
  it("are kept under unguessable ids, the oldest dropped past the limit", () => {
    const views = new AppViews();
    const first = views.add("<p>first</p>", undefined);
    expect(first.id).toMatch(/^[\w-]{22}$/);
    expect(views.get(first.id)?.html).toBe("<p>first</p>");
    for (let i = 0; i < 32; i++) views.add(`<p>${i}</p>`, undefined);
    expect(views.get(first.id)).toBeUndefined();
  });
});
