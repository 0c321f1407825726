/**
 * The gateway's configuration file, described once as data: the checker reads it to
 * validate a file (each mistake with its line and column), and docs/gateway.md documents
 * every key it names (a test holds the two together).
 */

/** One key's value: its type, what it is for, and what it may hold. */
export interface Field {
  /** What the value is: `strings` is a list of strings, `map` an object of any keys whose values are `values`. */
  type: "string" | "number" | "boolean" | "strings" | "map" | "object" | "list";
  /** What it is for, as the documentation says it. */
  help: string;
  /** The value when absent, as the documentation shows it. */
  default?: string;
  /** An object's key that must be given. */
  required?: boolean;
  /** A string's allowed values. */
  oneOf?: readonly string[];
  /** A number's lower bound. */
  min?: number;
  /** A number's upper bound. */
  max?: number;
  /** A number that must be whole. */
  integer?: boolean;
  /** An object's keys. */
  fields?: Readonly<Record<string, Field>>;
  /** An object that may hold keys it does not name (another client's settings): they are left alone. */
  open?: boolean;
  /** What a map's values, or a list's items, are. */
  values?: Field;
}

const selection = (what: string): Field => ({
  type: "object",
  help: `which of the server's ${what} are served, and as what`,
  fields: {
    allow: {
      type: "strings",
      help: `only these ${what} (their upstream names; \`*\` matches any characters); default: all`,
    },
    deny: { type: "strings", help: `never these ${what} (upstream names, \`*\` allowed); wins over allow` },
    rename: {
      type: "map",
      help: `upstream name → the name served instead of \`<server><separator><name>\``,
      values: { type: "string", help: "the served name" },
    },
    describe: {
      type: "map",
      help: "upstream name → the description served instead of the upstream's",
      values: { type: "string", help: "the description" },
    },
  },
});

const rate: Field = {
  type: "object",
  help: "a token bucket per principal",
  fields: {
    perSecond: { type: "number", help: "calls a second, on average", required: true, min: 0.001 },
    burst: { type: "number", help: "calls at once after a quiet spell", default: "perSecond", min: 1, integer: true },
  },
};

/** An entry of `mcpServers`, as MCP clients write it. */
export const SERVER_ENTRY: Field = {
  type: "object",
  help: "one upstream server, as MCP clients configure it",
  open: true,
  fields: {
    command: { type: "string", help: "the command that starts a stdio server" },
    args: { type: "strings", help: "its arguments" },
    env: {
      type: "map",
      help: "variables for the command (it gets only PATH, HOME and the like besides)",
      values: { type: "string", help: `a value; \`\${VAR}\` reads the gateway's environment` },
    },
    envFile: { type: "string", help: "KEY=VALUE lines for the command, relative to the file" },
    cwd: { type: "string", help: "its working directory, relative to the file", default: "the file's folder" },
    url: { type: "string", help: "a Streamable HTTP server's URL (or an HTTP+SSE one's, with type sse)" },
    type: {
      type: "string",
      help: "the transport",
      oneOf: ["stdio", "http", "streamable-http", "streamableHttp", "sse"],
      default: "stdio with command, http with url",
    },
    headers: {
      type: "map",
      help: "headers for every request to the server's origin (never another's)",
      values: { type: "string", help: `a value; \`\${VAR}\` reads the gateway's environment` },
    },
    disabled: { type: "boolean", help: "leave the server out", default: "false" },
  },
};

/** What `gateway.servers.<name>` may say about one upstream. */
export const UPSTREAM_OPTIONS: Field = {
  type: "object",
  help: "the gateway's settings for the upstream of that name in mcpServers",
  fields: {
    tools: selection("tools"),
    prompts: selection("prompts"),
    perSession: {
      type: "boolean",
      help: "a process (or connection) per client session: for a server that needs each caller's roots, sampling or elicitation",
      default: "false",
    },
    envFile: { type: "string", help: "KEY=VALUE lines for the command, relative to the file (beside the entry's env)" },
    token: {
      type: "object",
      help: "each person's own token at the identity provider they signed in with, for this upstream",
      fields: {
        provider: {
          type: "string",
          help: "the provider it must come from (github, google, oidc…: the sign-in's id)",
          required: true,
        },
        env: { type: "string", help: "a stdio server gets it in this variable (one process per session)" },
        header: { type: "string", help: "an HTTP server gets it in this header", default: "Authorization" },
        scheme: { type: "string", help: "written before the token in the header", default: "Bearer" },
      },
    },
  },
};

/** A policy rule: whom it is about, and what it allows or denies them. */
export const POLICY_RULE: Field = {
  type: "object",
  help: "a rule: when the principal matches `when`, `allow` and `deny` apply",
  fields: {
    when: {
      type: "object",
      help: "every condition given must hold (a list: any of its values); none given: everyone, signed in or not",
      fields: {
        subject: { type: "strings", help: "the token's subject (`github:583231` from mcpkit's sign-in)" },
        issuer: { type: "strings", help: "the token's issuer" },
        groups: { type: "strings", help: "a group the token (or the identity provider) names" },
        scopes: { type: "strings", help: "a scope the token grants" },
        email: { type: "strings", help: "the email address (not one the provider marked unverified)" },
        emailDomain: { type: "strings", help: "the email address's domain" },
        signedIn: { type: "boolean", help: "true: any signed-in principal; false: callers without a token" },
      },
    },
    allow: {
      type: "strings",
      help: "`server`, `server/*` (everything of it), `server/name` (a tool or prompt, its upstream name; `*` allowed)",
    },
    deny: { type: "strings", help: "the same patterns, refused even where another rule allows" },
    rateLimit: { ...rate, help: "the rate for principals this rule matches (the first such rule's)" },
  },
};

/** The `gateway` section. */
export const GATEWAY_SECTION: Field = {
  type: "object",
  help: "the gateway's own settings",
  fields: {
    separator: {
      type: "string",
      help: "joins a server's name and a tool's or prompt's: one to three of `_`, `-` and `.`",
      default: "_",
    },
    audit: { type: "string", help: "the audit log's file, relative to the configuration file" },
    auditArguments: {
      type: "string",
      help: "what the audit log keeps of arguments: a SHA-256 digest, or the arguments with `redact`'s keys redacted",
      oneOf: ["digest", "redacted"],
      default: "digest",
    },
    redact: {
      type: "strings",
      help: "argument keys written as `[redacted]`, beside those naming a password, secret, token, API key, authorization, cookie or credential",
    },
    servers: { type: "map", help: "per upstream, by its name in mcpServers", values: UPSTREAM_OPTIONS },
    policy: {
      type: "list",
      help: "who may use which servers and tools; once given, whatever no rule allows is refused",
      values: POLICY_RULE,
    },
    rateLimit: { ...rate, help: "the rate each principal (else each client address) may call at" },
    virtualServers: {
      type: "map",
      help: "a path (`/triage`) → a curated subset of the tools, served as an MCP endpoint of its own",
      values: {
        type: "object",
        help: "one virtual server",
        fields: {
          tools: {
            type: "strings",
            help: "served tool names (`github_search_*`); the policy still decides who sees each",
            required: true,
          },
          prompts: { type: "strings", help: "served prompt names", default: "none" },
          resources: { type: "boolean", help: "serve the upstreams' resources too", default: "false" },
          instructions: { type: "string", help: "what the server tells clients it is for" },
        },
      },
    },
    maxUpstreams: {
      type: "number",
      help: "a perSession upstream's processes at once, the one reading its lists included (then the least recently used idle one is stopped)",
      default: "16",
      min: 1,
      integer: true,
    },
    startTimeoutMs: {
      type: "number",
      help: "how long an upstream may take to start and list what it offers",
      default: "30000",
      min: 100,
      integer: true,
    },
    health: { type: "boolean", help: "serve GET /healthz", default: "true" },
  },
};

/** The whole file: a client configuration with a `gateway` section. */
export const CONFIG_FILE: Field = {
  type: "object",
  help: "a client configuration (.mcp.json) with a gateway section",
  open: true,
  fields: {
    mcpServers: { type: "map", help: "the upstream servers, by name", values: SERVER_ENTRY },
    servers: { type: "map", help: "VS Code's name for mcpServers (one of the two is needed)", values: SERVER_ENTRY },
    gateway: GATEWAY_SECTION,
  },
};

/** Every key path the schema names (`gateway.servers.*.tools.allow`), for the documentation's test. */
export function keyPaths(field: Field = CONFIG_FILE, at = ""): string[] {
  const here = at === "" ? [] : [at];
  if (field.fields)
    return [...here, ...Object.entries(field.fields).flatMap(([k, f]) => keyPaths(f, at ? `${at}.${k}` : k))];
  if (field.values && (field.type === "map" || field.type === "list"))
    return [...here, ...keyPaths(field.values, `${at}.*`).filter((p) => p !== `${at}.*`)];
  return here;
}
