import { describe, expect, it } from "vitest";
import { OriginCredentials, type SignInStore } from "./credentials.js";

// Each credential goes to the origin it was given for, and no other.

const stores: SignInStore[] = [];
const credentials = () =>
  new OriginCredentials(async () => {
    const store = { storage: { get: async () => undefined, set: async () => {}, delete: async () => {} } } as never;
    stores.push(store);
    return store;
  });

describe("credentials by origin", () => {
  it("gives a URL the headers of its origin, whatever its path", () => {
    const held = credentials();
    held.give("https://api.example.com/mcp", { Authorization: "Bearer a" });
    expect(held.headersFor("https://api.example.com/other?x=1")).toEqual({ Authorization: "Bearer a" });
    expect(held.headerNames("https://api.example.com/")).toEqual(["Authorization"]);
  });

  it.each([
    ["another host", "https://evil.example.com/mcp"],
    ["another port", "https://api.example.com:8443/mcp"],
    ["another scheme", "http://api.example.com/mcp"],
    ["a sub-domain", "https://x.api.example.com/mcp"],
  ])("gives %s none of them", (_what, url) => {
    const held = credentials();
    held.give("https://api.example.com/mcp", { Authorization: "Bearer a" });
    expect(held.headersFor(url)).toEqual({});
  });

  it("replaces a header of the same name in any case, and removes those named", () => {
    const held = credentials();
    held.give("https://a.example/", { authorization: "Bearer old", "X-Keep": "1" });
    held.give("https://a.example/", { Authorization: "Bearer new" }, ["x-keep"]);
    expect(held.headersFor("https://a.example/")).toEqual({ Authorization: "Bearer new" });
  });

  it("hands out a copy: changing it changes nothing held", () => {
    const held = credentials();
    held.give("https://a.example/", { A: "1" });
    held.headersFor("https://a.example/").A = "2";
    expect(held.headersFor("https://a.example/")).toEqual({ A: "1" });
  });

  it("keeps one sign-in per origin, made when first needed", async () => {
    const held = credentials();
    const first = await held.signInFor("https://a.example/mcp");
    expect(await held.signInFor("https://a.example/other")).toBe(first);
    expect(await held.signInFor("https://b.example/mcp")).not.toBe(first);
  });

  it("knows every secret it holds, for the downloads to leave out: headers of every origin, and what a sign-in stored", async () => {
    const held = credentials();
    held.give("https://a.example/", { "X-Api-Key": "key-a" });
    held.give("https://b.example/", { Authorization: "Bearer key-b" });
    const { storage } = await held.signInFor("https://a.example/mcp");
    await storage.set("tokens", { access_token: "at-1", refresh_token: "rt-1", token_type: "DPoP", expires_in: 60 });
    await storage.set("client", { client_id: "public-id", client_secret: "cs-1" });
    expect(held.secrets().sort()).toEqual(["Bearer key-b", "at-1", "cs-1", "key-a", "rt-1"].sort());
    // A sign-in forgotten: its tokens are still left out of what was recorded with them.
    held.forgetSignIn("https://a.example/mcp");
    expect(held.secrets()).toContain("at-1");
  });
});
