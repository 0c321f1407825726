import { decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, rawClient, startHarness, statusOf } from "./harness.js";

// Signing keys rotate: a new key signs once the newest is keyRotationSec old; the old one
// stays in the JWKS, and its tokens keep working, until every token it signed has expired.

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const kids = async (issuer: string) =>
  ((await (await fetch(`${issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);

describe("signing keys", () => {
  it("rotate, keep old tokens valid while they live, and retire the old key afterwards", async () => {
    let now = Date.now();
    h = await startHarness({ now: () => now, keyRotationSec: 60, accessTokenTtlSec: 300 });
    const client = rawClient(h);
    const registered = await client.register();
    const before = await client.signIn(registered);
    const oldKid = decodeProtectedHeader(before.access_token).kid as string;
    expect(await kids(h.issuer)).toEqual([oldKid]);

    now += 61_000;
    const after = await client.signIn(registered);
    const newKid = decodeProtectedHeader(after.access_token).kid as string;
    expect(newKid).not.toBe(oldKid);
    expect(await kids(h.issuer)).toEqual([oldKid, newKid]);
    expect(await statusOf(h.resource, { authorization: `Bearer ${before.access_token}` })).toBe(200);
    expect(await statusOf(h.resource, { authorization: `Bearer ${after.access_token}` })).toBe(200);

    // Past the lifetime of every token the old key signed (and the hour to spare).
    now += (300 + 3600) * 1000;
    expect(await kids(h.issuer)).not.toContain(oldKid);
  });

  it("are sealed in the store: the private key is not readable there", async () => {
    const { memoryAuthorizationStore } = await import("mcpkit/auth");
    const store = memoryAuthorizationStore();
    h = await startHarness({ store });
    await rawClient(h).signIn(await rawClient(h).register());
    const [key] = await store.signingKeys();
    expect(key?.publicJwk).not.toHaveProperty("d");
    expect(key?.sealedPrivateJwk).toMatch(/^v1\./);
    expect(key?.sealedPrivateJwk).not.toContain('"d"');
  });
});
