import { isIP } from "node:net";
import { addressKey } from "../../../transports/http/client-address.js";
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
   * The request header that names the client's address, for a server behind a proxy you
   * run that sets it (`x-forwarded-for`: its last address; `cf-connecting-ip`,
   * `x-real-ip`: the whole value). Default none: the connection's address, as the Node
   * adapter passes it (`fetch(request, { clientAddress })`). Never name a header your
   * proxy does not overwrite: a client could then choose its own address.
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
  addressHeader?: string;
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
    ...(given.addressHeader && { addressHeader: given.addressHeader }),
  };
}

/**
 * Whom a request counts against: the client's address as a key (client-address.ts), from
 * the configured header when it holds an IP address, else from the connection; undefined
 * when neither is known (then only the totals apply).
 */
export function callerOf(
  request: Request,
  info: { clientAddress?: string } | undefined,
  header: string | undefined,
): string | undefined {
  const value = header ? request.headers.get(header) : null;
  // A proxy appends the address it saw: the last one is the only one it vouches for.
  const named = value?.split(",").pop()?.trim();
  const address = named && isIP(named) ? named : info?.clientAddress;
  return address && isIP(address) ? addressKey(address) : undefined;
}

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
