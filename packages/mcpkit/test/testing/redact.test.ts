import { describe, expect, it } from "vitest";
import { REDACTED, redact } from "../../src/testing/record/redact.js";

// What a recording leaves out (docs/testing.md, "What a recording leaves out").

describe("credentials left out of a recording", () => {
  it("removes the value of every key that names a credential, at any depth, _meta included", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "login",
        arguments: {
          user: "ada",
          password: "hunter22",
          apiKey: "k-123",
          api_key: "k-456",
          nested: { accessToken: "t" },
        },
        _meta: { "example.com/authToken": "abc", progressToken: 7, "x-session-cookie": { a: 1 } },
      },
    };
    expect(redact(message)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "login",
        arguments: {
          user: "ada",
          password: REDACTED,
          apiKey: REDACTED,
          api_key: REDACTED,
          nested: { accessToken: REDACTED },
        },
        // A progress token names a request's progress: kept, as are counts of tokens.
        _meta: { "example.com/authToken": REDACTED, progressToken: 7, "x-session-cookie": REDACTED },
      },
    });
    expect(redact({ maxTokens: 50, usage: { inputTokens: 3 } })).toEqual({ maxTokens: 50, usage: { inputTokens: 3 } });
    expect(redact({ Authorization: "Bearer x", client_secret: "s", clientSecret: "s" })).toEqual({
      Authorization: REDACTED,
      client_secret: REDACTED,
      clientSecret: REDACTED,
    });
  });

  it("removes configured secrets wherever they appear in text, the longest first", () => {
    const secrets = ["sk-live-0123456789", "sk-live-0123"];
    expect(
      redact(
        { result: { content: [{ type: "text", text: "key=sk-live-0123456789, again sk-live-0123456789" }] } },
        { secrets },
      ),
    ).toEqual({
      result: { content: [{ type: "text", text: `key=${REDACTED}, again ${REDACTED}` }] },
    });
    // Too short to look for: it would match ordinary text.
    expect(redact({ text: "abc and more" }, { secrets: ["abc"] })).toEqual({ text: "abc and more" });
  });

  it("removes bearer tokens and JSON Web Tokens inside any text", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    expect(redact({ text: `got Bearer abcdefgh12345678 and ${jwt}.` })).toEqual({
      text: `got Bearer ${REDACTED} and ${REDACTED}.`,
    });
  });

  it("keeps a __proto__ key a key, and leaves everything else as it was", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": 1}, "n": 1, "list": [null, true, "x"]}');
    const out = redact(parsed) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "n", "list"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":1},"n":1,"list":[null,true,"x"]}');
  });
});
