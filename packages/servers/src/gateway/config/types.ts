/** The gateway's configuration, read and checked (config/read.ts): what the rest of the gateway works from. */

/** How to reach an upstream server. */
export type UpstreamTarget =
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { transport: "http" | "sse"; url: string; headers: Record<string, string> };

/** Which tools (or prompts) of an upstream are served, and as what. */
export interface Selection {
  /** Upstream names or patterns (`*`) served; undefined: all. */
  allow?: string[];
  deny: string[];
  /** Upstream name → served name. */
  rename: Record<string, string>;
  /** Upstream name → description served. */
  describe: Record<string, string>;
}

/** Each person's token at the identity provider they signed in with, for one upstream. */
export interface PersonToken {
  provider: string;
  /** For a stdio upstream: the variable it is given in. */
  env?: string;
  /** For an HTTP upstream: the header, and what precedes the token in it. */
  header: string;
  scheme: string;
}

export interface UpstreamConfig {
  /** Its name in mcpServers. */
  name: string;
  /** What its tools' and prompts' names start with (naming.ts), and its resources' URIs hold. */
  prefix: string;
  target: UpstreamTarget;
  tools: Selection;
  prompts: Selection;
  /** A connection (a process, for stdio) per client session. */
  perSession: boolean;
  token?: PersonToken;
}

/** Conditions over a principal's claims: each given must hold; a list holds when any of its values does. */
export interface PrincipalMatch {
  subject?: string[];
  issuer?: string[];
  groups?: string[];
  scopes?: string[];
  email?: string[];
  emailDomain?: string[];
  signedIn?: boolean;
}

export interface RateConfig {
  perSecond: number;
  burst?: number;
}

export interface PolicyRule {
  when: PrincipalMatch;
  allow: string[];
  deny: string[];
  rateLimit?: RateConfig;
}

export interface VirtualServerConfig {
  /** Its URL path, `/triage`. */
  path: string;
  tools: string[];
  prompts: string[];
  resources: boolean;
  instructions?: string;
}

export interface GatewayConfig {
  /** The configuration file's absolute path (relative paths in it are relative to its folder). */
  file: string;
  /** In the file's order. */
  upstreams: UpstreamConfig[];
  separator: string;
  audit?: { file: string; arguments: "digest" | "redacted" };
  /** Argument keys written as redacted, beside those audit/redact.ts always redacts (as redactionKey writes them). */
  redact: string[];
  /** Undefined: no policy, everyone may use everything. */
  policy?: PolicyRule[];
  rateLimit?: RateConfig;
  virtualServers: VirtualServerConfig[];
  maxUpstreams: number;
  startTimeoutMs: number;
  health: boolean;
}
