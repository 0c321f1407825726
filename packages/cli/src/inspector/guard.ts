import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { KEY_HEADER } from "./contract/operations.js";

/** The cookie the one-time token is exchanged for. */
export const COOKIE_NAME = "mcpkit_inspector";

/** Host names of this machine, as a Host header or an Origin writes them. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Why a request is refused: an HTTP status and a sentence for the person who sent it. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/** What the one-time token is exchanged for: the cookie's Set-Cookie value and the page's key. */
export interface Exchange {
  cookie: string;
  key: string;
}

/**
 * Who may use the inspector: the browser that opened the URL with the one-time token, and
 * only through this machine's own names. The token is exchanged for two things: an
 * HttpOnly SameSite=Strict cookie, which the browser sends with every request (the page's
 * scripts, its app views), and a key the page keeps in its own storage and sends in a
 * header with every API request. Cookies ignore ports, so any server on another port of
 * 127.0.0.1 the browser visits receives the cookie; the page's storage is its origin's
 * alone, port included, so the key stays with this inspector's page, and a stolen cookie
 * drives nothing. The Host check stops DNS rebinding (a foreign name that resolves to
 * 127.0.0.1); the Origin check stops other sites open in the same browser.
 */
export class Guard {
  private token: string | undefined = secret();
  private readonly session = secret();
  private readonly key = secret();
  private port = 0;

  /** Set once the server listens: Host and Origin must name this port. */
  listening(port: number): void {
    this.port = port;
  }

  /** The one-time token for the URL the command prints (undefined once it was used). */
  get pendingToken(): string | undefined {
    return this.token;
  }

  /** A fresh one-time token (the person asked for a new link); the one not yet used no longer works. */
  renew(): string {
    this.token = secret();
    return this.token;
  }

  /** Host and Origin, for every request (the OAuth callback included). */
  checkPlace(req: IncomingMessage): Refusal | undefined {
    if (!this.isOurHost(req.headers.host))
      return { status: 403, message: `Host "${req.headers.host ?? ""}" is not this inspector's address` };
    const origin = req.headers.origin;
    if (origin !== undefined && !this.isOurOrigin(origin))
      return { status: 403, message: `Origin "${origin}" may not use this inspector` };
    // Browsers send Origin with every POST; a request that changes something without it
    // did not come from the inspector's page.
    if (origin === undefined && req.method !== "GET" && req.method !== "HEAD")
      return { status: 403, message: "A request that changes something must carry its Origin" };
    return undefined;
  }

  /** The cookie, for everything but the token exchange and the OAuth callback. */
  checkCookie(req: IncomingMessage): Refusal | undefined {
    // Any of them: a page on another port can plant one of the same name with a longer path
    // (cookies ignore ports), which the browser sends first; taking the first locked the
    // person out until the browser closed (cookie tossing).
    if (cookieValues(req.headers.cookie, COOKIE_NAME).some((value) => same(value, this.session))) return undefined;
    return {
      status: 401,
      message: "Open the inspector with the URL mcpkit inspect printed (it carries a one-time token)",
    };
  }

  /** The page's key, for every API request (after the cookie). */
  checkKey(req: IncomingMessage): Refusal | undefined {
    const value = req.headers[KEY_HEADER];
    if (typeof value === "string" && same(value, this.key)) return undefined;
    return {
      status: 401,
      message:
        "This page holds no key to this inspector: open a fresh link (press Enter in the terminal of mcpkit inspect)",
    };
  }

  /**
   * Exchanges the one-time token for the cookie and the page's key; undefined when the
   * token is wrong or was already used.
   */
  exchange(token: string): Exchange | undefined {
    if (this.token === undefined || !same(token, this.token)) return undefined;
    this.token = undefined;
    return { cookie: `${COOKIE_NAME}=${this.session}; HttpOnly; SameSite=Strict; Path=/`, key: this.key };
  }

  private isOurHost(host: string | undefined): boolean {
    return host !== undefined && LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${this.port}`);
  }

  private isOurOrigin(origin: string): boolean {
    return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${this.port}`);
  }
}

const secret = () => randomBytes(24).toString("base64url");

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Every value the Cookie header gives `name` (RFC 6265 §5.4: one per path and domain that matched). */
function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of header?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}
