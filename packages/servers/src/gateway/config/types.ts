/** The gateway's configuration, read and checked (config/read.ts): what the rest of the gateway works from. */

/** How to reach an upstream server. */
export type UpstreamTarget =
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { transport: "http" | "sse"; url: string; headers: Record<string, string> };

/** Which tools (or prompts) of an upstream are served, and as what. */
export interface Selection {
  /** Upstream names or patterns (`*`) served; undefined: all. */
  allow?: string[];
  /** Upstream names or patterns never served; a deny wins over an allow. */
  deny: string[];
  /** Upstream name → served name. */
  rename: Record<string, string>;
  /** Upstream name → description served. */
  describe: Record<string, string>;
}

/** Each person's token at the identity provider they signed in with, for one upstream. */
export interface PersonToken {
  /** The sign-in's provider the token must come from (`github`, `google`, `oidc`…). */
  provider: string;
  /** For a stdio upstream: the variable it is given in. */
  env?: string;
  /** For an HTTP upstream: the header, and what precedes the token in it. */
  header: string;
  /** Written before the token in the header (`Bearer`); empty: the token alone. */
  scheme: string;
}

/** One upstream server, read and checked: how to reach it, and what of it is served. */
export interface UpstreamConfig {
  /** Its name in mcpServers. */
  name: string;
  /** What its tools' and prompts' names start with (naming.ts), and its resources' URIs hold. */
  prefix: string;
  /** How it is reached: a command (stdio) or a URL. */
  target: UpstreamTarget;
  /** Which of its tools are served, and as what. */
  tools: Selection;
  /** Which of its prompts are served, and as what. */
  prompts: Selection;
  /** A connection (a process, for stdio) per client session. */
  perSession: boolean;
  /** Each person's own token at the identity provider, for this upstream; absent: its own credentials only. */
  token?: PersonToken;
}

/** Conditions over a principal's claims: each given must hold; a list holds when any of its values does. */
export interface PrincipalMatch {
  /** The token's subject (`github:583231` from mcpkit's sign-in); `*` matches any characters. */
  subject?: string[];
  /** The token's issuer. */
  issuer?: string[];
  /** A group the token's `groups` claim, or the identity provider at sign-in, names. */
  groups?: string[];
  /** A scope the token grants. */
  scopes?: string[];
  /** The email address, compared without case (not one the token says is unverified). */
  email?: string[];
  /** The email address's domain, whole (`example.com`, never `evil-example.com`). */
  emailDomain?: string[];
  /** true: any signed-in principal; false: callers without a token. */
  signedIn?: boolean;
}

/** A token bucket: calls a second on average, and at once after a quiet spell. */
export interface RateConfig {
  /** Calls a second, on average. */
  perSecond: number;
  /** Calls at once after a quiet spell (default perSecond). */
  burst?: number;
}

/** A policy rule: for the principals `when` matches, what it allows and denies, and their rate. */
export interface PolicyRule {
  /** Whom it applies to: every condition given must hold; none given, everyone. */
  when: PrincipalMatch;
  /** `*`, `server`, `server/*` (everything of it) or `server/name` (a tool or prompt by its upstream name). */
  allow: string[];
  /** The same patterns, refused whatever another rule allows. */
  deny: string[];
  /** The rate of the principals it matches (the first rule with one wins). */
  rateLimit?: RateConfig;
}

/** A virtual server: a path of its own serving a curated subset of the gateway's tools. */
export interface VirtualServerConfig {
  /** Its URL path, `/triage`. */
  path: string;
  /** Served tool names or patterns (`github_search_*`); the policy still decides who sees each. */
  tools: string[];
  /** Served prompt names or patterns. */
  prompts: string[];
  /** Whether the upstreams' resources are served there too. */
  resources: boolean;
  /** What it tells clients it is for. */
  instructions?: string;
}

/** A gateway's configuration, as readGatewayConfig reads and checks it from its file. */
export interface GatewayConfig {
  /** The configuration file's absolute path (relative paths in it are relative to its folder). */
  file: string;
  /** In the file's order. */
  upstreams: UpstreamConfig[];
  /** Joins a server's name and a tool's or prompt's: one to three of `_`, `-` and `.`. */
  separator: string;
  /** The audit log's file (absolute), and what it keeps of arguments; absent: no file. */
  audit?: { file: string; arguments: "digest" | "redacted" };
  /** Argument keys written as redacted, beside those audit/redact.ts always redacts (as redactionKey writes them). */
  redact: string[];
  /** Undefined: no policy, everyone may use everything. */
  policy?: PolicyRule[];
  /** The rate each principal (else each client address) may call at; absent: none. */
  rateLimit?: RateConfig;
  /** The virtual servers, each at its path. */
  virtualServers: VirtualServerConfig[];
  /** A perSession upstream's processes (or connections) at once, the one reading its lists included. */
  maxUpstreams: number;
  /** How long an upstream may take to start and list what it offers, ms. */
  startTimeoutMs: number;
  /** Whether GET /healthz is served. */
  health: boolean;
}
