import { isIP } from "node:net";
import { addressKey } from "../../../transports/http/client-address.js";
import {
  type ClientAddressOf,
  clientAddressResolver,
  isHeaderName,
  type TrustProxy,
} from "../../../transports/http/trust-proxy.js";
import type { ClientMetadataOptions } from "./client-metadata.js";
import { oauthError } from "./http.js";
import { errorPage } from "./pages.js";
import { newId } from "./seal.js";
import type { AuthorizationStore } from "./store.js";

/** At most `max` requests from one caller in any `windowSec` seconds. */
export interface RateLimit {
  max: number;
  windowSec: number;
}

/**
 * What the authorization server lets callers take (createAuthorizationServer's `limits`):
 * a rate per caller for each endpoint, so that one caller cannot starve the rest, and caps
 * on the records kept, so that all callers together cannot fill the store. A caller is the
 * client's IP address (an IPv6 address by its /64); `false` turns a limit off.
 */
export interface AuthorizationLimits {
  /** Registrations (POST /register) per caller (default 20 an hour). */
  register?: RateLimit | false;
  /** Requests to each of /authorize, /callback and /consent per caller (default 60 in 10 minutes). */
  signIn?: RateLimit | false;
  /** Token requests (POST /token) per caller (default 120 a minute). */
  token?: RateLimit | false;
  /** Revocations (POST /revoke) per caller (default 60 a minute). */
  revoke?: RateLimit | false;
  /** Registered clients kept at once, in total (default 10,000). */
  maxClients?: number | false;
  /** Registered clients kept at once that one caller registered (default 1,000). */
  maxClientsPerCaller?: number | false;
  /** Sign-ins under way at once (from /authorize to the person's decision, `signInTtlSec` at most), in total (default 10,000). */
  maxSignIns?: number | false;
  /**
   * Reverse proxies of yours whose forwarded header names the caller, where `fetch` is
   * given the connection's address: the same option, read the same way, as `listen`'s
   * `trustProxy` (TrustProxy): the header is read only from a connection whose peer is one
   * of them. Served by mcpkit's Node adapter (`listen`, `toNodeListener`,
   * `fastifyHandler`, `mcpkit serve --trust-proxy`), name the proxies there instead: it
   * passes every handler it serves the address it found, this server's included. This one
   * is for a server of your own that passes the peer's address (Bun's
   * `server.requestIP(request)`, Deno's `info.remoteAddr`). Default: no proxy, the caller
   * is the connection's address.
   */
  trustProxy?: TrustProxy;
  /**
   * The header the platform sets to the caller's address, for a runtime where `fetch` is
   * given no connection address (a Cloudflare Worker: `cf-connecting-ip`; `x-real-ip`;
   * of a list such as `x-forwarded-for`, the last address, the one the platform appended).
   * Believed only then: only the platform reaches such a handler, and it overwrites the
   * header. Never read when the connection's address is given, since any client could write
   * an address into it: the caller is then that address (behind a proxy, see `trustProxy`),
   * and the first such request reports this setting to `onError` as having no effect.
   */
  addressHeader?: string;
}

export type RateName = "register" | "signIn" | "token" | "revoke";

export const DEFAULT_LIMITS = {
  register: { max: 20, windowSec: 3600 },
  signIn: { max: 60, windowSec: 600 },
  token: { max: 120, windowSec: 60 },
  revoke: { max: 60, windowSec: 60 },
  maxClients: 10_000,
  maxClientsPerCaller: 1_000,
  maxSignIns: 10_000,
} as const;

/** The limits in force: what is absent is off. */
export interface Limits {
  rates: Partial<Record<RateName, RateLimit>>;
  maxClients?: number;
  maxClientsPerCaller?: number;
  maxSignIns?: number;
  /** The header a platform sets, read when the connection's address is not given. */
  addressHeader?: string;
  /** The caller behind trusted proxies (limits.trustProxy), when the connection's address is given. */
  addressOf?: ClientAddressOf;
}

const count = (value: number, name: string) => {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`limits.${name} must be a whole number from 1`);
  return value;
};

/** The options with their defaults, checked. */
export function resolveLimits(options: AuthorizationLimits | false | undefined): Limits {
  if (options === false) return { rates: {} };
  const given = options ?? {};
  const rates: Limits["rates"] = {};
  for (const name of ["register", "signIn", "token", "revoke"] as const) {
    const rate = given[name] ?? DEFAULT_LIMITS[name];
    if (rate === false) continue;
    if (!(rate.windowSec > 0)) throw new TypeError(`limits.${name}.windowSec must be a positive number of seconds`);
    rates[name] = { max: count(rate.max, `${name}.max`), windowSec: rate.windowSec };
  }
  const cap = (name: "maxClients" | "maxClientsPerCaller" | "maxSignIns") => {
    const value = given[name] ?? DEFAULT_LIMITS[name];
    return value === false ? {} : { [name]: count(value, name) };
  };
  return {
    rates,
    ...cap("maxClients"),
    ...cap("maxClientsPerCaller"),
    ...cap("maxSignIns"),
    ...(given.addressHeader !== undefined && { addressHeader: headerName(given.addressHeader) }),
    ...(given.trustProxy && { addressOf: trusted(given.trustProxy) }),
  };
}

function headerName(name: string): string {
  if (!isHeaderName(name))
    throw new TypeError(`limits.addressHeader must be a header name such as cf-connecting-ip, not "${name}"`);
  return name;
}

/** The proxies compiled now: a wrong address fails here, not on a request. */
function trusted(trust: TrustProxy): ClientAddressOf {
  try {
    return clientAddressResolver(trust);
  } catch (error) {
    throw new TypeError(`limits.${(error as Error).message}`);
  }
}

/**
 * Whom each request counts against: the client's address as a key (client-address.ts), or
 * undefined when it is not known (then only the totals apply). Given the connection's
 * address, that address, walked back through `limits.trustProxy` when its peer is one of
 * them; given none (a Worker), the platform's `limits.addressHeader`. No header is believed
 * from a connection that is not a trusted proxy's: a client could write any address into it.
 */
export function callerOf(
  limits: Limits,
  report: (error: Error) => void,
): (request: Request, info: { clientAddress?: string } | undefined) => string | undefined {
  let told = false;
  return (request, info) => {
    const peer = info?.clientAddress;
    let address: string | undefined;
    if (peer === undefined) {
      // A platform appends the address it saw: the last one is the only one it vouches for.
      address = limits.addressHeader && request.headers.get(limits.addressHeader)?.split(",").pop()?.trim();
    } else {
      if (limits.addressHeader && !limits.addressOf && !told) {
        told = true;
        report(headerIgnored(limits.addressHeader));
      }
      address = limits.addressOf ? limits.addressOf(peer, request.headers) : peer;
    }
    return address && isIP(address) ? addressKey(address) : undefined;
  };
}

const headerIgnored = (header: string) =>
  new Error(
    `limits.addressHeader ("${header}") is read only where fetch is given no connection address (a Worker, whose platform sets it). ` +
      "This server is given the connection's address, so it counts each caller by that and ignores the header, which any client could write. " +
      "Behind a reverse proxy, name it in trustProxy (listen, toNodeListener, mcpkit serve --trust-proxy; or limits.trustProxy) and drop limits.addressHeader.",
  );

/** A limit reached: the answer says why and when to come back. */
export interface Refusal {
  /** 429: this caller's; 503: everyone's. */
  status: 429 | 503;
  message: string;
  retryAfterSec: number;
}

/** The refusal as an OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2): `temporarily_unavailable`, with Retry-After. */
export const refusedJson = (refusal: Refusal) =>
  oauthError(refusal.status, "temporarily_unavailable", refusal.message, {
    "retry-after": String(refusal.retryAfterSec),
  });

/** The refusal as a page, for the person's browser (before the client's redirect URI is checked). */
export const refusedPage = (refusal: Refusal) =>
  errorPage(refusal.status === 429 ? "Too many requests" : "Try again later", refusal.message, refusal.status, {
    "retry-after": String(refusal.retryAfterSec),
  });

const WHAT: Record<RateName, string> = {
  register: "registrations",
  signIn: "sign-in requests",
  token: "token requests",
  revoke: "revocations",
};

/** "a minute", "an hour", "10 minutes". */
function span(seconds: number): string {
  for (const [unit, size] of [
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
  ] as const) {
    if (seconds % size === 0 && seconds >= size)
      return seconds === size ? `${unit === "hour" ? "an" : "a"} ${unit}` : `${seconds / size} ${unit}s`;
  }
  return `${seconds} seconds`;
}

/** "in 45 seconds", "in 3 minutes", "in 2 hours", "in 5 days" (rounded up). */
function after(seconds: number): string {
  if (seconds < 120) return `in ${seconds} second${seconds === 1 ? "" : "s"}`;
  if (seconds < 7200) return `in ${Math.ceil(seconds / 60)} minutes`;
  if (seconds < 172_800) return `in ${Math.ceil(seconds / 3600)} hours`;
  return `in ${Math.ceil(seconds / 86_400)} days`;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Counts one request of `caller` to an endpoint; the refusal when it is over the endpoint's rate. */
export async function overRate(
  store: AuthorizationStore,
  limits: Limits,
  name: RateName,
  caller: string | undefined,
): Promise<Refusal | undefined> {
  const rate = limits.rates[name];
  if (!rate || caller === undefined) return undefined;
  // Each request is a member of its own, staying the window: a sliding window.
  const admission = await store.admit(newId(), [
    { group: `rate:${name}:${caller}`, max: rate.max, ttlMs: rate.windowSec * 1000 },
  ]);
  if (admission.admitted) return undefined;
  const retryAfterSec = seconds(admission.retryAfterMs);
  return {
    status: 429,
    message: `Too many ${WHAT[name]} from your address (at most ${rate.max} in ${span(rate.windowSec)}): try again ${after(retryAfterSec)}`,
    retryAfterSec,
  };
}

/** Counts a newly registered client, in total and against the caller that registered it; the refusal when either is full. */
export async function admitClient(
  store: AuthorizationStore,
  limits: Limits,
  clientId: string,
  caller: string | undefined,
  ttlMs: number,
): Promise<Refusal | undefined> {
  const counts = [
    ...(limits.maxClients ? [{ group: "clients", max: limits.maxClients, ttlMs }] : []),
    ...(limits.maxClientsPerCaller && caller !== undefined
      ? [{ group: `clients:${caller}`, max: limits.maxClientsPerCaller, ttlMs }]
      : []),
  ];
  if (counts.length === 0) return undefined;
  const admission = await store.admit(clientId, counts);
  if (admission.admitted) return undefined;
  const retryAfterSec = seconds(admission.retryAfterMs);
  return admission.group === "clients"
    ? {
        status: 503,
        message: `This server keeps ${limits.maxClients} registered clients and has that many: try again ${after(retryAfterSec)}`,
        retryAfterSec,
      }
    : {
        status: 429,
        message: `Your address has registered ${limits.maxClientsPerCaller} clients that are still kept: use one of them, or try again ${after(retryAfterSec)}`,
        retryAfterSec,
      };
}

/** Counts a sign-in under way (by the id of its first record); the refusal when as many as allowed are under way. */
export async function admitSignIn(
  store: AuthorizationStore,
  limits: Limits,
  id: string,
  ttlMs: number,
): Promise<Refusal | undefined> {
  if (!limits.maxSignIns) return undefined;
  const admission = await store.admit(id, [{ group: "sign-ins", max: limits.maxSignIns, ttlMs }]);
  if (admission.admitted) return undefined;
  const retryAfterSec = seconds(admission.retryAfterMs);
  return {
    status: 503,
    message: `Too many sign-ins are under way on this server: try again ${after(retryAfterSec)}`,
    retryAfterSec,
  };
}

/** Counts a fetched client metadata document among those kept (1000 by default); false when as many are kept (it is then not). */
export async function admitDocument(
  store: AuthorizationStore,
  maxCached: ClientMetadataOptions["maxCached"],
  clientId: string,
  ttlMs: number,
): Promise<boolean> {
  if (maxCached === false) return true;
  return (await store.admit(clientId, [{ group: "documents", max: maxCached ?? 1000, ttlMs }])).admitted;
}
