import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { calculateJwkThumbprint } from "jose";
import { oidcUpstream } from "mcpkit/auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpkit, requireBuild, stopAll, Terminal } from "../cli-call/helpers.js";
import { Browser } from "./browser.js";
import { type Harness, startHarness } from "./harness.js";
import { type IdentityProvider, startIdentityProvider } from "./identity-provider.js";

// `mcpkit call` signs in through the authorization server to a real identity provider
// (oidc-provider on 127.0.0.1), at a terminal, then calls the tool; the next runs use the
// stored login, bound with DPoP to the key mcpkit call keeps. The test plays the person's browser.

let idp: IdentityProvider;
let h: Harness;
let configDir = "";
const previousConfig = process.env.MCPKIT_CONFIG_DIR;

beforeAll(async () => {
  requireBuild();
  idp = await startIdentityProvider();
  // DPoP on, as the server's default: tokens, and the refresh tokens of a public client
  // (RFC 9449 §5), are bound to the key mcpkit call keeps in its config folder.
  h = await startHarness({
    upstream: oidcUpstream({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }),
  });
  idp.serve([`${h.issuer}/callback`]);
  configDir = mkdtempSync(join(tmpdir(), "mcpkit-as-login-"));
  process.env.MCPKIT_CONFIG_DIR = configDir;
});
afterAll(async () => {
  await stopAll();
  await h?.close();
  await idp?.close();
  if (previousConfig === undefined) delete process.env.MCPKIT_CONFIG_DIR;
  else process.env.MCPKIT_CONFIG_DIR = previousConfig;
  rmSync(configDir, { recursive: true, force: true });
});

interface Saved {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  dpop_jkt?: string;
  expires_at?: number;
  obtained_at?: number;
}
const logins = () => join(configDir, "oauth.json");
const keyFile = () => join(configDir, "dpop-key.json");
const saved = (): Saved => JSON.parse(readFileSync(logins(), "utf8"))[`tokens ${h.resource}`];
/** What the next run will find once the access token has expired (as it would after its 300 s). */
function expireAccessToken(): void {
  const all = JSON.parse(readFileSync(logins(), "utf8"));
  const tokens = all[`tokens ${h.resource}`] as Saved;
  all[`tokens ${h.resource}`] = { ...tokens, obtained_at: Date.now() - 600_000, expires_at: Date.now() - 300_000 };
  writeFileSync(logins(), JSON.stringify(all));
}

describe("mcpkit call behind the authorization server", () => {
  it("signs in with DPoP, and keeps the login across runs: the saved token, then a refresh, bound to the same key", async () => {
    const terminal = new Terminal(["call", "--no-browser", h.resource, "call", "whoami"]);
    await terminal.expect("/authorize?");
    const printed = new RegExp(`(${h.issuer}/authorize\\?\\S+)`).exec(terminal.text)?.[1] as string;
    const redirectUri = new URL(printed).searchParams.get("redirect_uri") as string;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const browser = new Browser();
    const { callback } = await browser.authorize(printed, { until: redirectUri });
    expect(callback?.searchParams.get("iss")).toBe(h.issuer);
    expect((await fetch(callback as URL)).status).toBe(200);
    expect(await terminal.result()).toEqual({ code: 0, stdout: "you are oidc:ada\n" });
    expect(idp.signIns).toEqual(["ada"]);

    // The tokens are bound to the key kept beside them, readable by its owner only.
    const first = saved();
    expect(first.token_type.toLowerCase()).toBe("dpop");
    expect(first.refresh_token).toBeTruthy();
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    const { kty, crv, x, y } = JSON.parse(readFileSync(keyFile(), "utf8")).jwk;
    expect(first.dpop_jkt).toBe(await calculateJwkThumbprint({ kty, crv, x, y }, "sha256"));

    // The next run sends the saved token as it is.
    expect(await mcpkit(["call", h.resource, "call", "whoami"])).toMatchObject({
      code: 0,
      stdout: "you are oidc:ada\n",
    });
    expect(saved().access_token).toBe(first.access_token);

    // Once it has expired, the run after refreshes it, proving possession of the same key.
    expireAccessToken();
    expect(await mcpkit(["call", h.resource, "call", "whoami"])).toMatchObject({
      code: 0,
      stdout: "you are oidc:ada\n",
    });
    const refreshed = saved();
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.dpop_jkt).toBe(first.dpop_jkt);
    expect(idp.signIns).toEqual(["ada"]);
  });

  it("cannot use a saved login without its key: another key's proof does not refresh it", async () => {
    expireAccessToken();
    rmSync(keyFile());
    const run = await mcpkit(["call", "--no-interactive", h.resource, "call", "whoami"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("no stored login");
    // The refused refresh token is forgotten; nobody was asked to sign in.
    expect(saved().refresh_token).toBeUndefined();
    expect(idp.signIns).toEqual(["ada"]);
  });
});
