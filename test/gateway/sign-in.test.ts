import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage, OAuthClient } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer, requestKey } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../packages/redis/test/redis-server.js";
import { Browser } from "../authorization-server/browser.js";
import { type IdentityProvider, startIdentityProvider } from "../authorization-server/identity-provider.js";
import { assertBuilt } from "../interop/helpers.js";
import { notesEntry, textOf } from "./helpers.js";
import { type GatewayProcess, startGatewayProcess } from "./process.js";

// `mcpkit gateway` behind its own sign-in, people signing in at a real OpenID Provider
// (oidc-provider on 127.0.0.1): two people with different rights see and may call
// different tools; an upstream acts with each person's own token at the provider, never
// with the token the client holds; the audit log names who called what.

const REDIRECT = "http://127.0.0.1:4567/callback";
const ALICE = { id: "alice", name: "Alice", email: "alice@example.com", groups: ["eng"] };
const BOB = { id: "bob", name: "Bob", email: "bob@contractor.io" };

/** The Authorization headers each upstream received with tools/call, in order. */
const received: Record<string, (string | null)[]> = { tracker: [], gh: [] };

/** An HTTP upstream whose tool tells who the provider says its caller's token belongs to. */
async function trackerUpstream(idp: IdentityProvider, name: string) {
  const authorization = requestKey<string | null>("authorization");
  const server = createServer({ name, version: "1" });
  server.use((ctx, next) => {
    if (ctx.method === "tools/call") {
      const header = ctx.headers?.get("authorization") ?? null;
      received[name]?.push(header);
      ctx.set(authorization, header);
    }
    return next();
  });
  server.tool("whoami", {}, async (_args, ctx) => {
    const header = ctx.get(authorization);
    if (!header) return "no token";
    const me = await fetch(`${idp.issuer}/me`, { headers: { authorization: header } });
    return me.ok ? `the provider says: ${((await me.json()) as { email: string }).email}` : `refused (${me.status})`;
  });
  const listening = await listen(createStreamableHttpHandler(server), { port: 0, host: "127.0.0.1" });
  return { url: new URL("/mcp", listening.url).href, close: () => listening.close() };
}

let idp: IdentityProvider;
let gateway: GatewayProcess;
let dir: string;
let config: string;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  assertBuilt();
  idp = await startIdentityProvider();
  closers.push(() => idp.close());
  const tracker = await trackerUpstream(idp, "tracker");
  const gh = await trackerUpstream(idp, "gh");
  closers.push(tracker.close, gh.close);
  dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-sign-in-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  config = join(dir, "team.mcp.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { notes: notesEntry("notes"), tracker: { url: tracker.url }, gh: { url: gh.url } },
      gateway: {
        audit: "audit.jsonl",
        servers: { tracker: { token: { provider: "oidc" } }, gh: { token: { provider: "github" } } },
        policy: [
          { when: { groups: ["eng"] }, allow: ["*"] },
          { when: { emailDomain: ["contractor.io"] }, allow: ["notes/list_notes", "tracker"] },
        ],
      },
    }),
  );
  const port = await freePort();
  idp.serve([`http://127.0.0.1:${port}/callback`]);
  gateway = await startGatewayProcess(config, ["--authorization-server", idp.issuer, "--client-id", idp.clientId], {
    port,
    env: { MCPKIT_UPSTREAM_CLIENT_SECRET: idp.clientSecret },
  });
  closers.push(() => gateway.stop());
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** `person` signs in (in a browser of their own) and gets a connected client of `url`, and the token it holds. */
async function signIn(person: IdentityProvider["person"], url = gateway.url) {
  idp.person = person;
  const browser = new Browser();
  const storage = memoryStorage();
  const oauth = new OAuthClient({
    serverUrl: url,
    storage,
    clientName: "gateway-e2e",
    redirectUri: REDIRECT,
    redirect: async (url) => {
      const result = await browser.authorize(url.href, { until: REDIRECT });
      if (!result.callback) throw new Error(`sign-in stopped at ${result.at}: ${browser.page}`);
      return result.callback;
    },
  });
  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  closers.push(() => client.close());
  const stored = (await storage.get(`tokens ${url}`)) as { access_token: string };
  return { client, token: stored.access_token };
}

describe("mcpkit gateway with sign-in at an OpenID Provider, for two people with different rights", () => {
  it("shows each person what the policy allows them, and nothing else is callable", async () => {
    const alice = await signIn(ALICE);
    const bob = await signIn(BOB);
    const aliceTools = (await alice.client.tools()).map((t) => t.name);
    expect(aliceTools).toEqual(
      expect.arrayContaining(["notes_echo", "notes_list_notes", "tracker_whoami", "gh_whoami"]),
    );
    expect((await bob.client.tools()).map((t) => t.name)).toEqual(["notes_list_notes", "tracker_whoami"]);
    expect(textOf(await alice.client.callTool("notes_echo", { a: 1 }))).toBe('{"a":1}');
    await expect(bob.client.callTool("notes_echo", { a: 1 })).rejects.toMatchObject({ code: -32602 });
    expect(textOf(await bob.client.callTool("notes_list_notes"))).toBe("first note");
    // A stdio upstream gets what its entry gives it, never the gateway's own secrets.
    expect(textOf(await alice.client.callTool("notes_env", { name: "MCPKIT_UPSTREAM_CLIENT_SECRET" }))).toBe("(unset)");
    // Resources need the whole server: Alice's rule gives it, Bob's names one tool.
    expect((await alice.client.resources()).map((r) => r.uri)).toContain("notes://notes/all");
    expect(await bob.client.resources()).toEqual([]);
    await expect(bob.client.readResource("notes://notes/all")).rejects.toThrow(/not found/i);
  });

  it("calls an upstream with each person's own token at the provider, never the token the client holds", async () => {
    const alice = await signIn(ALICE);
    const bob = await signIn(BOB);
    received.tracker = [];
    expect(textOf(await alice.client.callTool("tracker_whoami"))).toBe("the provider says: alice@example.com");
    expect(textOf(await bob.client.callTool("tracker_whoami"))).toBe("the provider says: bob@contractor.io");
    expect(received.tracker).toHaveLength(2);
    for (const header of received.tracker) {
      expect(header).toMatch(/^Bearer \S+$/);
      expect(header).not.toContain(alice.token);
      expect(header).not.toContain(bob.token);
    }
  });

  it("refuses to call an upstream whose token must come from another provider, and sends it nothing", async () => {
    const alice = await signIn(ALICE);
    received.gh = [];
    await expect(alice.client.callTool("gh_whoami")).rejects.toThrow(
      /acts with each person's own github sign-in, and you signed in with oidc/,
    );
    expect(received.gh).toEqual([]);
    // Said at start, before anyone called.
    expect(gateway.log()).toMatch(
      /warning: the "gh" server acts with each person's own github sign-in, and people sign in with .* \(oidc\): every call to it will be refused/,
    );
    expect(gateway.log()).not.toMatch(/warning: the "tracker" server/);
  });

  it("lets people sign in to a virtual server a reload added, without a restart", async () => {
    const from = gateway.log().length;
    const before = JSON.parse(readFileSync(config, "utf8")) as { gateway: Record<string, unknown> };
    before.gateway.virtualServers = { "/triage": { tools: ["notes_*_notes", "tracker_whoami"] } };
    writeFileSync(config, JSON.stringify(before));
    const triage = `http://127.0.0.1:${gateway.port}/triage`;
    await gateway.printed(`virtual server: ${triage}`, from);
    const bob = await signIn(BOB, triage);
    // The policy holds there too: Bob may list notes, not add them.
    expect((await bob.client.tools()).map((t) => t.name)).toEqual(["notes_list_notes", "tracker_whoami"]);
    expect(textOf(await bob.client.callTool("tracker_whoami"))).toBe("the provider says: bob@contractor.io");
    // Its tokens are its own: one issued for /mcp is refused there.
    const other = await signIn(BOB);
    const refused = await fetch(triage, {
      method: "POST",
      headers: {
        authorization: `Bearer ${other.token}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(refused.status).toBe(401);
  });

  it("writes who called what, and what was refused, in the audit log", async () => {
    const lines = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const of = (who: string) => lines.filter((l) => String(l.principal).endsWith(encodeURIComponent(`oidc:${who}`)));
    expect(of("alice").map((l) => [l.served, l.outcome])).toContainEqual(["notes_echo", "ok"]);
    expect(of("bob").map((l) => [l.tool, l.upstream, l.outcome])).toContainEqual(["echo", "notes", "denied"]);
    expect(of("alice").map((l) => [l.served, l.outcome])).toContainEqual(["gh_whoami", "error"]);
  });
});
