import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

/**
 * A real OpenID Provider on 127.0.0.1 (oidc-provider, certified by the OpenID Foundation),
 * standing for the company IdP people sign in with. Its one client is the MCP
 * authorization server; its people sign in without a password form: the login and
 * consent interactions finish at once for `person` (as if they were signed in already),
 * so tests drive the real protocol (discovery, PKCE, ID token, refresh, userinfo) with
 * no page to fill in.
 */
export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in next (account id = `sub`), and the groups the provider names them in, if any. */
  person: { id: string; name: string; email: string; groups?: string[] };
  /** Sign-ins finished (interactions completed), in order. */
  signIns: string[];
  /** Starts serving, with the redirect URIs of its one client (the MCP authorization server's callback). */
  serve(redirectUris: string[]): void;
  close(): Promise<void>;
}

export async function startIdentityProvider(options: { accessTokenTtlSec?: number } = {}): Promise<IdentityProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: IdentityProvider = {
    issuer,
    clientId: "mcpkit-authorization-server",
    clientSecret: "a-client-secret-of-the-mcp-authorization-server",
    person: { id: "ada", name: "Ada Lovelace", email: "ada@example.com" },
    signIns: [],
    serve: (redirectUris) => {
      handler = serving(redirectUris);
    },
    close: async () => {},
  };
  /** Everyone who signed in, for the claims of their tokens. */
  const people = new Map<string, IdentityProvider["person"]>();
  const serving = (redirectUris: string[]) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          redirect_uris: redirectUris,
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
        },
      ],
      async findAccount(_ctx: KoaContextWithOIDC, id: string) {
        const person: IdentityProvider["person"] =
          people.get(id) ?? (id === idp.person.id ? idp.person : { id, name: id, email: `${id}@example.com` });
        const groups = person.groups ? { groups: person.groups } : {};
        return { accountId: id, claims: async () => ({ sub: id, name: person.name, email: person.email, ...groups }) };
      },
      claims: { openid: ["sub"], profile: ["name", "groups"], email: ["email"] },
      scopes: ["openid", "offline_access", "profile", "email"],
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      ttl: { AccessToken: options.accessTokenTtlSec ?? 3600, Interaction: 600, Session: 3600, Grant: 3600 },
      issueRefreshToken: async (_ctx, client, code) =>
        client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access"),
    });
    const callback = provider.callback();
    return async (req: IncomingMessage, res: ServerResponse) => {
      const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? "");
      if (!match) return callback(req, res);
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === "login") {
          idp.signIns.push(idp.person.id);
          people.set(idp.person.id, idp.person);
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: idp.person.id } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new provider.Grant({ accountId: String(details.session?.accountId), clientId: idp.clientId });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      }
    };
  };
  idp.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return idp;
}
