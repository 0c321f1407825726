import type { AuthStep, AuthStepKind } from "./contract/entries.js";
import { shownHeaders } from "./network-log.js";

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Fields whose values are secrets: shown as what they are and their length, never as they are. */
const SECRET = new Set([
  "code",
  "code_verifier",
  "refresh_token",
  "access_token",
  "id_token",
  "client_secret",
  "client_assertion",
  "assertion",
  "subject_token",
  "registration_access_token",
]);

/** The largest answer body kept (metadata documents are small). */
const MAX_BODY = 64 * 1024;

/** A secret's stand-in: enough to tell it is there and how long, nothing to use. */
export const hidden = (value: unknown) =>
  `(hidden, ${typeof value === "string" ? value.length : JSON.stringify(value).length} characters)`;

/** An object with each secret field's value hidden, at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET.has(key) ? hidden(v) : maskSecrets(v)]),
  );
}

/** A form's or a URL's parameters, as an object, secrets hidden. */
const fields = (params: URLSearchParams) => maskSecrets(Object.fromEntries(params));

/**
 * Records a sign-in step by step (the authorization view): every request the OAuth client
 * makes (metadata, registration, token, refresh) and the MCP server's challenge, with its
 * answer, and the two steps the browser takes (to the authorization server and back).
 */
export class AuthTrace {
  readonly steps: AuthStep[] = [];
  private seq = 0;
  /** The endpoints the authorization server's metadata named, to tell its requests apart. */
  private endpoints: { registration?: string; token?: string } = {};

  constructor(
    private readonly changed: (step: AuthStep) => void,
    private readonly limit = 200,
  ) {}

  clear(): void {
    this.steps.length = 0;
    this.endpoints = {};
  }

  /** The browser is sent to the authorization server: the request's parameters (PKCE's challenge, state…). */
  authorize(url: URL): void {
    this.add({ kind: "authorize", request: { method: "GET", url: withoutQuery(url), body: fields(url.searchParams) } });
    const clientId = url.searchParams.get("client_id") ?? "";
    // A client_id that is a URL is a Client ID Metadata Document: the server reads it, no registration.
    if (/^https:\/\//.test(clientId)) this.add({ kind: "client-metadata", request: { method: "GET", url: clientId } });
  }

  /** The browser came back to the inspector's callback: the code (hidden), the state, the issuer, or an error. */
  callback(url: URL): void {
    this.add({ kind: "callback", request: { method: "GET", url: withoutQuery(url), body: fields(url.searchParams) } });
  }

  /**
   * The OAuth client's fetch, recording its sign-in exchanges: the requests to the
   * authorization server, and the MCP server's (the endpoint's, or HTTP+SSE's) only when it
   * asks for a sign-in.
   */
  fetch(base: Fetch, endpoint: string): Fetch {
    return async (input, init = {}) => {
      const url = String(input);
      const body = requestBody(init);
      const kind = this.kindOf(url, body, endpoint);
      const started = kind && this.add({ kind, request: this.request(url, init, body) });
      let response: Response;
      try {
        response = await base(input, init);
      } catch (error) {
        if (started) this.update(started, { error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
      if (started) {
        const answer = await readBody(response);
        if (kind === "server-metadata") this.learn(answer);
        this.update(started, {
          response: { status: response.status, headers: shownHeaders(response.headers), body: maskSecrets(answer) },
        });
      } else if ((response.status === 401 || response.status === 403) && response.headers.has("www-authenticate"))
        // The server's challenge (basic/authorization §Authorization Flow Steps): 401, or 403 for a scope.
        this.add({
          kind: "challenge",
          request: this.request(url, init, undefined),
          response: { status: response.status, headers: shownHeaders(response.headers) },
        });
      return response;
    };
  }

  /** What a request of the OAuth client's is; undefined for the MCP server's own. */
  private kindOf(url: string, body: unknown, endpoint: string): AuthStepKind | undefined {
    if (withoutQuery(new URL(url)) === withoutQuery(new URL(endpoint))) return undefined;
    const path = new URL(url).pathname;
    if (path.includes("/.well-known/oauth-protected-resource")) return "resource-metadata";
    if (path.includes("/.well-known/oauth-authorization-server") || path.includes("/.well-known/openid-configuration"))
      return "server-metadata";
    const bare = withoutQuery(new URL(url));
    if (bare === this.endpoints.registration || (!this.endpoints.registration && /\/register\/?$/.test(path)))
      return "registration";
    if (bare === this.endpoints.token || (!this.endpoints.token && /\/token\/?$/.test(path)))
      return (body as { grant_type?: unknown } | undefined)?.grant_type === "refresh_token" ? "refresh" : "token";
    return undefined;
  }

  private learn(metadata: unknown): void {
    const { registration_endpoint: registration, token_endpoint: token } = (metadata ?? {}) as Record<string, unknown>;
    this.endpoints = {
      ...(typeof registration === "string" && { registration }),
      ...(typeof token === "string" && { token }),
    };
  }

  private request(url: string, init: RequestInit, body: unknown): AuthStep["request"] {
    return {
      method: (init.method ?? "GET").toUpperCase(),
      url,
      headers: shownHeaders(new Headers(init.headers)),
      ...(body !== undefined && { body: maskSecrets(body) }),
    };
  }

  private add(step: Omit<AuthStep, "seq" | "at">): AuthStep {
    const made: AuthStep = { seq: ++this.seq, at: Date.now(), ...step };
    this.steps.push(made);
    if (this.steps.length > this.limit) this.steps.shift();
    this.changed(made);
    return made;
  }

  private update(step: AuthStep, change: Partial<AuthStep>): void {
    Object.assign(step, change);
    this.changed(step);
  }
}

const withoutQuery = (url: URL) => `${url.origin}${url.pathname}`;

/** A request's body as fields (a form) or JSON; undefined when there is none. */
function requestBody(init: RequestInit): unknown {
  const body = init.body;
  if (body instanceof URLSearchParams) return Object.fromEntries(body);
  if (typeof body !== "string") return undefined;
  const type = new Headers(init.headers).get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body.length > 512 ? `${body.slice(0, 512)}…` : body;
  }
}

/** An answer's body (a copy: the OAuth client reads the original), as JSON when it is. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response
    .clone()
    .text()
    .catch(() => "");
  const kept = text.length > MAX_BODY ? text.slice(0, MAX_BODY) : text;
  if (kept === "") return undefined;
  try {
    return JSON.parse(kept) as unknown;
  } catch {
    return kept;
  }
}
