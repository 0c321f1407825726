import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CryptoKey, decodeJwt, generateKeyPair, SignJWT } from "jose";
import { fileAssertion, OAuthClient } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { beforeEach, describe, expect, it } from "vitest";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

const PLATFORM = "https://kubernetes.default.svc";
const fx = perTestAuthorizationServer();
let platformKey: CryptoKey;
beforeEach(async () => {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  platformKey = privateKey;
  fx.as.trustWorkload = { issuer: PLATFORM, key: publicKey };
});

/** What the platform would mount for the workload: a short-lived JWT for one audience. */
const platformToken = (audience: string, subject = "system:serviceaccount:ci:builder") =>
  new SignJWT({})
    .setProtectedHeader({ alg: "ES256" })
    .setIssuer(PLATFORM)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(platformKey);

function server() {
  const s = createServer({ name: "builds", version: "1" });
  s.tool("whoami", {}, (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  return s;
}

async function connect(url: string, oauth: OAuthClient) {
  const client = new Client({ name: "workload-test", version: "1" });
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  fx.closers.push(() => client.close());
  return client;
}

describe("workload identity federation (JWT bearer with a platform token)", () => {
  it("trades the platform's token for an access token, asking for it with the issuer as audience", async () => {
    const mcp = await protectedMcp(server(), fx.as);
    fx.closers.push(mcp.close);
    const asked: { audience: string; resource: string }[] = [];
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      workload: {
        assertion: (request) => {
          asked.push(request);
          return platformToken(request.audience);
        },
      },
    });
    const client = await connect(mcp.url, oauth);
    expect((await client.callTool("whoami")).content).toEqual([
      { type: "text", text: "you are system:serviceaccount:ci:builder" },
    ]);
    expect(asked).toEqual([{ audience: fx.as.issuer, resource: mcp.url }]);
    expect(fx.as.grants).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    expect(fx.as.authorizations).toEqual([]); // nobody was sent to a browser
  });

  it("reports a refused assertion as it is, without retrying or trying another grant", async () => {
    const mcp = await protectedMcp(server(), fx.as);
    fx.closers.push(mcp.close);
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      workload: { assertion: await platformToken("https://another-authorization-server.example") },
      // Offered, and never used: a workload failure does not fall back to a user's login.
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: async () => {
        throw new Error("no browser");
      },
    });
    await expect(connect(mcp.url, oauth)).rejects.toThrow(/invalid_grant/);
    expect(fx.as.grants).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    expect(fx.as.authorizations).toEqual([]);
  });

  it("reads the token from the platform's file each time, so a rotated token is used", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpkit-wif-"));
    fx.closers.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "token");
    const read = fileAssertion(file);
    await writeFile(file, `${await platformToken(fx.as.issuer, "first")}\n`);
    expect(decodeJwt(await read()).sub).toBe("first");
    await writeFile(file, await platformToken(fx.as.issuer, "second"));
    expect(decodeJwt(await read()).sub).toBe("second");
    await writeFile(file, "");
    await expect(read()).rejects.toThrow(/empty/);
  });

  it("binds the workload's token with DPoP when the authorization server supports it", async () => {
    fx.as.dpop = true;
    const mcp = await protectedMcp(server(), fx.as, { dpop: { required: true } });
    fx.closers.push(mcp.close);
    const oauth = new OAuthClient({ serverUrl: mcp.url, workload: { assertion: (r) => platformToken(r.audience) } });
    const client = await connect(mcp.url, oauth);
    expect((await client.callTool("whoami")).content).toHaveLength(1);
    expect((await oauth.tokens())?.token_type.toLowerCase()).toBe("dpop");
    expect(fx.as.dpopProofs).toHaveLength(1);
  });
});
