import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.js";

// Dynamic Client Registration (RFC 7591): what may be registered, and the errors that say
// what is wrong with what may not.

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const register = async (body: unknown, raw = false) => {
  const response = await fetch(`${h.issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("dynamic client registration", () => {
  it("registers a native app's loopback, https and private-use redirect URIs, confidential by default", async () => {
    const answer = await register({
      client_name: "Desktop",
      redirect_uris: ["http://127.0.0.1/callback", "https://app.example/cb", "com.example.app:/oauth"],
    });
    expect(answer).toMatchObject({
      status: 201,
      body: {
        client_id: expect.any(String),
        client_secret: expect.any(String),
        client_secret_expires_at: 0,
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["authorization_code", "refresh_token"],
      },
    });
  });

  it.each([
    [{ redirect_uris: [] }, "invalid_redirect_uri", /1 to 20/],
    [{ redirect_uris: ["http://app.example/cb"] }, "invalid_redirect_uri", /http but not to this machine/],
    [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri", /javascript:/],
    [{ redirect_uris: ["https://app.example/cb#x"] }, "invalid_redirect_uri", /fragment/],
    [{ redirect_uris: ["/relative"] }, "invalid_redirect_uri", /absolute/],
    [
      { redirect_uris: ["https://a/cb"], token_endpoint_auth_method: "private_key_jwt" },
      "invalid_client_metadata",
      /none, client_secret_basic/,
    ],
    [
      { redirect_uris: ["https://a/cb"], grant_types: ["client_credentials"] },
      "invalid_client_metadata",
      /grant_types/,
    ],
    [{ redirect_uris: ["https://a/cb"], response_types: ["token"] }, "invalid_client_metadata", /response_types/],
  ])("refuses %j with %s", async (metadata, error, description) => {
    const answer = await register(metadata);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(error);
    expect(answer.body.error_description).toMatch(description);
  });

  it("refuses what is not a JSON object, and a body over 16 KiB", async () => {
    expect((await register("not json", true)).body.error).toBe("invalid_client_metadata");
    expect((await register([1, 2])).body.error).toBe("invalid_client_metadata");
    const huge = await register({ redirect_uris: ["https://a/cb"], client_name: "x".repeat(17_000) });
    expect(huge.body.error_description).toContain("16 KiB");
  });
});
