import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, generateKeyPair, jwtVerify, SignJWT } from "jose";

/**
 * An enterprise IdP for tests, on 127.0.0.1: it signs ID tokens for users (the SSO login
 * the MCP client already did) and exchanges them for ID-JAGs at /token (RFC 8693), unless
 * its policy denies the user. Every exchange is recorded.
 */
export interface TestIdentityProvider {
  issuer: string;
  tokenEndpoint: string;
  /** The client id the MCP client has at this IdP. */
  clientId: string;
  /** The client id its ID-JAGs name: the MCP client's id at the MCP authorization server. */
  audienceClientId: string;
  /** The key ID-JAGs are signed with (what an authorization server trusts). */
  jagKey: CryptoKey;
  /** Token exchange requests seen, in order. */
  exchanges: URLSearchParams[];
  /** Users the policy refuses. */
  denied: Set<string>;
  /** An ID token from the user's SSO login. */
  idToken(subject: string): Promise<string>;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

export async function startIdentityProvider(): Promise<TestIdentityProvider> {
  const login = await generateKeyPair("ES256");
  const jag = await generateKeyPair("ES256");
  let issuer = "";
  const clientId = "mcp-desktop";
  const idp: TestIdentityProvider = {
    issuer: "",
    tokenEndpoint: "",
    clientId,
    audienceClientId: "mcp-desktop-at-as",
    jagKey: jag.publicKey,
    exchanges: [],
    denied: new Set(),
    idToken: (subject) =>
      new SignJWT({ email: `${subject}@example.com` })
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer(issuer)
        .setSubject(subject)
        .setAudience(clientId)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(login.privateKey),
    close: async () => {},
  };

  const server: Server = createServer(async (req, res) => {
    if (req.url !== "/token" || req.method !== "POST") return json(res, 404, { error: "not_found" });
    let body = "";
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    idp.exchanges.push(form);
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:token-exchange")
      return json(res, 400, { error: "unsupported_grant_type" });
    if (form.get("requested_token_type") !== "urn:ietf:params:oauth:token-type:id-jag")
      return json(res, 400, { error: "invalid_request" });
    let subject: string;
    try {
      const { payload } = await jwtVerify(form.get("subject_token") ?? "", login.publicKey, {
        issuer,
        audience: clientId,
      });
      subject = String(payload.sub);
    } catch {
      return json(res, 400, { error: "invalid_grant", error_description: "The ID token is not valid" });
    }
    if (idp.denied.has(subject))
      return json(res, 400, { error: "access_denied", error_description: `${subject} may not use this server` });
    const assertion = await new SignJWT({ resource: form.get("resource"), client_id: idp.audienceClientId })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" })
      .setIssuer(issuer)
      .setSubject(subject)
      .setAudience(form.get("audience") ?? "")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(jag.privateKey);
    json(res, 200, {
      access_token: assertion,
      issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      token_type: "N_A",
      expires_in: 300,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  idp.issuer = issuer;
  idp.tokenEndpoint = `${issuer}/token`;
  idp.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return idp;
}
