import { describe, expect, it } from "vitest";
import { AuthTrace, maskSecrets } from "./auth-trace.js";
import type { AuthStep } from "./contract/entries.js";

// What the authorization view is given of a sign-in: each step, and never a secret.

describe("maskSecrets", () => {
  it("hides codes, verifiers, tokens and client secrets at any depth, saying how long they were", () => {
    expect(
      maskSecrets({
        access_token: "eyJhbGciOiJFUzI1NiJ9.x.y",
        token_type: "Bearer",
        nested: [{ refresh_token: "r-123", scope: "tools:read" }],
        client_secret: "s",
        expires_in: 3600,
      }),
    ).toEqual({
      access_token: "(hidden, 24 characters)",
      token_type: "Bearer",
      nested: [{ refresh_token: "(hidden, 5 characters)", scope: "tools:read" }],
      client_secret: "(hidden, 1 characters)",
      expires_in: 3600,
    });
  });

  it("leaves what is not an object as it is", () => {
    expect(maskSecrets("text")).toBe("text");
    expect(maskSecrets(null)).toBeNull();
  });
});

describe("the browser's steps", () => {
  const recorded = () => {
    const seen: AuthStep[] = [];
    return { trace: new AuthTrace((step) => seen.push(step)), seen };
  };

  it("records the authorization request's parameters, PKCE's public challenge included", () => {
    const { trace, seen } = recorded();
    trace.authorize(
      new URL("https://as.example/authorize?client_id=abc&code_challenge=xyz&code_challenge_method=S256&state=s1"),
    );
    expect(seen).toMatchObject([
      {
        kind: "authorize",
        request: {
          method: "GET",
          url: "https://as.example/authorize",
          body: { client_id: "abc", code_challenge: "xyz", code_challenge_method: "S256", state: "s1" },
        },
      },
    ]);
  });

  it("says a client_id that is a URL is a Client ID Metadata Document, with no registration", () => {
    const { trace, seen } = recorded();
    trace.authorize(new URL("https://as.example/authorize?client_id=https%3A%2F%2Fapp.example%2Fclient.json"));
    expect(seen.map((s) => s.kind)).toEqual(["authorize", "client-metadata"]);
    expect(seen[1]?.request.url).toBe("https://app.example/client.json");
  });

  it("records the callback with its code hidden", () => {
    const { trace, seen } = recorded();
    trace.callback(new URL("http://127.0.0.1:4000/oauth/callback?code=the-code&state=s1&iss=https%3A%2F%2Fas.example"));
    expect(seen[0]?.request.body).toEqual({ code: "(hidden, 8 characters)", state: "s1", iss: "https://as.example" });
  });

  it("numbers the steps and forgets them on request", () => {
    const { trace } = recorded();
    trace.callback(new URL("http://127.0.0.1:1/oauth/callback?error=access_denied"));
    trace.callback(new URL("http://127.0.0.1:1/oauth/callback?error=access_denied"));
    expect(trace.steps.map((s) => s.seq)).toEqual([1, 2]);
    trace.clear();
    expect(trace.steps).toEqual([]);
  });
});
