import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oidcUpstream } from "mcpkit/auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpkit, requireBuild, stopAll, Terminal } from "../cli-call/helpers.js";
import { Browser } from "./browser.js";
import { type Harness, startHarness } from "./harness.js";
import { type IdentityProvider, startIdentityProvider } from "./identity-provider.js";

// `mcpkit call` signs in through the authorization server to a real identity provider
// (oidc-provider on 127.0.0.1), at a terminal, then calls the tool; the next run uses the
// stored login. The test plays the person's browser.

let idp: IdentityProvider;
let h: Harness;
let configDir = "";
const previousConfig = process.env.MCPKIT_CONFIG_DIR;

beforeAll(async () => {
  requireBuild();
  idp = await startIdentityProvider();
  h = await startHarness({
    upstream: oidcUpstream({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }),
    // mcpkit call makes a new DPoP key in every process, so DPoP-bound tokens (and the refresh
    // tokens of a public client, RFC 9449 §5) could not serve the next run: Bearer here.
    dpop: false,
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

describe("mcpkit call behind the authorization server", () => {
  it("signs in at the identity provider, calls the tool as the person, and keeps the login", async () => {
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

    const again = await mcpkit(["call", h.resource, "call", "whoami"]);
    expect(again).toMatchObject({ code: 0, stdout: "you are oidc:ada\n" });
    expect(idp.signIns).toEqual(["ada"]);
  });

  it("with DPoP (the server's default): signs in and calls the tool with DPoP-bound tokens", async () => {
    const dpop = await startHarness({
      upstream: oidcUpstream({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }),
    });
    try {
      idp.serve([`${h.issuer}/callback`, `${dpop.issuer}/callback`]);
      const terminal = new Terminal(["call", "--no-browser", dpop.resource, "call", "whoami"]);
      await terminal.expect("/authorize?");
      const printed = new RegExp(`(${dpop.issuer}/authorize\\?\\S+)`).exec(terminal.text)?.[1] as string;
      const redirectUri = new URL(printed).searchParams.get("redirect_uri") as string;
      const { callback } = await new Browser().authorize(printed, { until: redirectUri });
      expect((await fetch(callback as URL)).status).toBe(200);
      expect(await terminal.result()).toEqual({ code: 0, stdout: "you are oidc:ada\n" });
    } finally {
      await dpop.close();
    }
  });
});
