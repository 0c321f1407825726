import { oauth2Upstream } from "./oauth2.js";
import { oidcUpstream } from "./oidc.js";
import type { UpstreamProvider } from "./types.js";

/** How to sign in with a well-known provider: data, made into a provider by upstreamPreset(). */
export type UpstreamPreset =
  | {
      kind: "oidc";
      title: string;
      /** The issuer; `{value}` stands for the preset's parameter. */
      issuer: string;
      /** What the parameter is, when the issuer has one: a tenant, a domain, a realm. */
      parameter?: { name: string; example: string };
      scopes: string[];
      authorizationParams?: Record<string, string>;
    }
  | {
      kind: "oauth2";
      title: string;
      authorizationEndpoint: string;
      tokenEndpoint: string;
      userEndpoint: string;
      subjectField: string;
      nameField: string;
      scopes: string[];
      parameter?: undefined;
    };

/** The identity providers people use, ready to configure with a client id and secret (docs/authorization.md). */
export const UPSTREAM_PRESETS = {
  github: {
    kind: "oauth2",
    title: "GitHub",
    authorizationEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    userEndpoint: "https://api.github.com/user",
    subjectField: "id",
    nameField: "login",
    scopes: ["read:user"],
  },
  google: {
    kind: "oidc",
    title: "Google",
    issuer: "https://accounts.google.com",
    scopes: ["openid", "email", "profile"],
    // Google issues refresh tokens only for offline access, and again only after consent.
    authorizationParams: { access_type: "offline", prompt: "consent" },
  },
  entra: {
    kind: "oidc",
    title: "Microsoft Entra ID",
    issuer: "https://login.microsoftonline.com/{value}/v2.0",
    parameter: { name: "tenant", example: "contoso.onmicrosoft.com" },
    scopes: ["openid", "profile", "email", "offline_access"],
  },
  okta: {
    kind: "oidc",
    title: "Okta",
    issuer: "https://{value}",
    parameter: { name: "domain", example: "dev-123456.okta.com" },
    scopes: ["openid", "profile", "email", "offline_access"],
  },
  auth0: {
    kind: "oidc",
    title: "Auth0",
    issuer: "https://{value}/",
    parameter: { name: "domain", example: "example.us.auth0.com" },
    scopes: ["openid", "profile", "email", "offline_access"],
  },
  keycloak: {
    kind: "oidc",
    title: "Keycloak",
    issuer: "{value}",
    parameter: { name: "realm URL", example: "https://keycloak.example.com/realms/acme" },
    scopes: ["openid", "profile", "email"],
  },
} satisfies Record<string, UpstreamPreset>;

export type UpstreamPresetName = keyof typeof UPSTREAM_PRESETS;

export interface UpstreamPresetOptions {
  clientId: string;
  clientSecret: string;
  /** The tenant, domain or realm URL, for the presets that need one. */
  parameter?: string;
  /** Scopes instead of the preset's. */
  scopes?: string[];
  /** Endpoints instead of the preset's (GitHub Enterprise Server; tests). */
  endpoints?: { authorizationEndpoint?: string; tokenEndpoint?: string; userEndpoint?: string; issuer?: string };
  fetch?: typeof fetch;
}

/** A provider from a preset: `upstreamPreset("entra", { parameter: "contoso.onmicrosoft.com", clientId, clientSecret })`. */
export function upstreamPreset(name: UpstreamPresetName, options: UpstreamPresetOptions): UpstreamProvider {
  const preset: UpstreamPreset = UPSTREAM_PRESETS[name];
  if (!preset)
    throw new TypeError(`No upstream preset "${name}"; choose one of ${Object.keys(UPSTREAM_PRESETS).join(", ")}`);
  const scopes = options.scopes ?? preset.scopes;
  const fetchOption = options.fetch && { fetch: options.fetch };
  if (preset.kind === "oauth2") {
    return oauth2Upstream({
      id: name,
      title: preset.title,
      authorizationEndpoint: options.endpoints?.authorizationEndpoint ?? preset.authorizationEndpoint,
      tokenEndpoint: options.endpoints?.tokenEndpoint ?? preset.tokenEndpoint,
      userEndpoint: options.endpoints?.userEndpoint ?? preset.userEndpoint,
      subjectField: preset.subjectField,
      nameField: preset.nameField,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes,
      ...fetchOption,
    });
  }
  if (preset.parameter && !options.parameter)
    throw new TypeError(
      `The ${preset.title} preset needs its ${preset.parameter.name} (for example ${preset.parameter.example})`,
    );
  return oidcUpstream({
    id: name,
    title: preset.title,
    issuer: options.endpoints?.issuer ?? preset.issuer.replace("{value}", options.parameter ?? ""),
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scopes,
    ...(preset.authorizationParams && { authorizationParams: preset.authorizationParams }),
    ...fetchOption,
  });
}
