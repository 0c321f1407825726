import { isIP } from "node:net";
import { addressKey } from "../../../transports/http/client-address.js";
import {
  type ClientAddressOf,
  clientAddressResolver,
  isHeaderName,
  type TrustProxy,
} from "../../../transports/http/trust-proxy.js";

/** At most `max` requests from one caller in any `windowSec` seconds. */
export interface RateLimit {
  max: number;
  windowSec: number;
}

/**
 * What the authorization server lets callers take (createAuthorizationServer's `limits`).
 * A rate per caller for each endpoint, so that one caller cannot starve the rest; and what
 * is kept is bounded, so that all callers together cannot fill the store, without refusing
 * anyone for want of room: at a cap, the oldest record of whoever holds the most gives way
 * (an unused registration, a sign-in never finished). A caller is the client's IP address
 * (an IPv6 address by its /64); `false` turns a limit off.
 */
export interface AuthorizationLimits {
  /** Registrations (POST /register) per caller (default 20 an hour). A window is an hour at most. */
  register?: RateLimit | false;
  /** Requests to each of /authorize, /callback and /consent per caller (default 60 in 10 minutes). */
  signIn?: RateLimit | false;
  /** Token requests (POST /token) per caller (default 120 a minute). */
  token?: RateLimit | false;
  /** Revocations (POST /revoke) per caller (default 60 a minute). */
  revoke?: RateLimit | false;
  /**
   * Registered clients kept that someone signed in with (a token was issued to them; each
   * kept `registration.clientTtlSec`), default 10,000: beyond, the oldest client of the
   * person holding the most gives way.
   */
  maxClients?: number | false;
  /**
   * Registrations not used yet (no token issued to them; each kept
   * `registration.unusedClientTtlSec`), default 10,000: beyond, the oldest of the caller
   * holding the most gives way.
   */
  maxUnusedClients?: number | false;
  /** Registrations not used yet that one caller holds (default 100): beyond, its own oldest gives way. */
  maxClientsPerCaller?: number | false;
  /**
   * Sign-ins under way (from /authorize to the person's decision, `signInTtlSec` at most),
   * default 10,000: beyond, the oldest of the caller holding the most gives way.
   */
  maxSignIns?: number | false;
  /** Sign-ins under way that one caller holds (default 100): beyond, its own oldest gives way. */
  maxSignInsPerCaller?: number | false;
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
  maxUnusedClients: 10_000,
  maxClientsPerCaller: 100,
  maxSignIns: 10_000,
  maxSignInsPerCaller: 100,
} as const;

type CapName = "maxClients" | "maxUnusedClients" | "maxClientsPerCaller" | "maxSignIns" | "maxSignInsPerCaller";
const CAPS: CapName[] = ["maxClients", "maxUnusedClients", "maxClientsPerCaller", "maxSignIns", "maxSignInsPerCaller"];

/** The longest window of a rate: a refused caller is never told to come back later than an hour. */
export const MAX_WINDOW_SEC = 3600;

/** The limits in force: what is absent is off. */
export interface Limits extends Partial<Record<CapName, number>> {
  rates: Partial<Record<RateName, RateLimit>>;
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
    if (!(rate.windowSec > 0 && rate.windowSec <= MAX_WINDOW_SEC))
      throw new TypeError(
        `limits.${name}.windowSec must be a positive number of seconds, an hour (${MAX_WINDOW_SEC}) at most: a refused caller is told when to come back, and never later than that`,
      );
    rates[name] = { max: count(rate.max, `${name}.max`), windowSec: rate.windowSec };
  }
  const caps: Partial<Record<CapName, number>> = {};
  for (const name of CAPS) {
    const value = given[name] ?? DEFAULT_LIMITS[name];
    if (value !== false) caps[name] = count(value, name);
  }
  return {
    rates,
    ...caps,
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
 * undefined when it is not known (then no rate applies, and the pools count every such
 * caller as one). Given the connection's address, that address, walked back through
 * `limits.trustProxy` when its peer is one of them; given none (a Worker), the platform's
 * `limits.addressHeader`. No header is believed from a connection that is not a trusted
 * proxy's: a client could write any address into it.
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
