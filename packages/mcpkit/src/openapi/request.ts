import { type ApiCredentials, type KeyPlacement, keyPlacement } from "./credentials.js";
import type { BodyPlan, RequestPlan } from "./input.js";
import { ArgumentError, cookiePieces, headerValue, pathValue, queryPieces } from "./serialize.js";

/** A request ready to send: only ever to the configured base URL. */
export interface ApiRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: Uint8Array | string | FormData | URLSearchParams | undefined;
}

export interface RequestSettings {
  /** The API's base URL: scheme, host and path prefix every request stays under. */
  base: URL;
  /** Headers for every request (options.headers). */
  headers: Readonly<Record<string, string>>;
  /** Where an API key goes when the credentials do not say. */
  keyPlacement: KeyPlacement | undefined;
}

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * Builds the request for one call. Path parameters are percent-encoded into their
 * segments, and the result must stay under the base URL: no `.` or `..` segment, no
 * other origin. The host comes from configuration only, never from the document or the
 * arguments.
 */
export function buildRequest(
  plan: RequestPlan,
  args: Record<string, unknown>,
  settings: RequestSettings,
  credentials: ApiCredentials | undefined,
): ApiRequest {
  let path = plan.path;
  const query: string[] = [];
  const headers = new Headers();
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(settings.headers)) headers.set(name, value);
  for (const param of plan.params) {
    const value = args[param.arg];
    if (param.in === "path") {
      if (!present(value)) throw new ArgumentError(`Missing path parameter ${param.arg}`);
      path = path.split(`{${param.name}}`).join(pathValue(param, value));
    } else if (!present(value)) {
    } else if (param.in === "query") query.push(...queryPieces(param, value));
    else if (param.in === "header") headers.set(param.name, headerValue(param, value));
    else cookies.push(...cookiePieces(param, value));
  }
  if (/\{[^}]*\}/.test(path))
    throw new ArgumentError(`The path ${plan.path} has a parameter the document does not declare`);

  const basePath = settings.base.pathname.replace(/\/+$/, "");
  const segments = `${basePath}${path}`.split("/");
  if (segments.some((s) => /^(\.|%2e){1,2}$/i.test(s)))
    throw new ArgumentError("A path parameter may not be . or .. (the request must stay under the API's base URL)");
  const url = new URL(settings.base.origin);
  url.pathname = `${basePath}${path}`;
  if (query.length > 0) url.search = query.join("&");
  if (url.origin !== settings.base.origin || !url.pathname.startsWith(basePath))
    throw new ArgumentError("The request would leave the API's base URL");

  let body: ApiRequest["body"];
  if (plan.body) {
    const value = args[plan.body.arg];
    if (present(value)) body = encodeBody(plan.body, value, headers);
    else if (plan.body.required) throw new ArgumentError(`Missing request body ${plan.body.arg}`);
  }
  applyCredentials(credentials, settings.keyPlacement, url, headers, cookies);
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  if (!headers.has("accept")) headers.set("accept", "application/json, */*;q=0.8");
  return { url, method: plan.method.toUpperCase(), headers, body };
}

function encodeBody(plan: BodyPlan, value: unknown, headers: Headers): ApiRequest["body"] {
  switch (plan.kind) {
    case "json":
      headers.set("content-type", plan.mediaType);
      return JSON.stringify(value);
    case "text":
      headers.set("content-type", plan.mediaType);
      return typeof value === "string" ? value : JSON.stringify(value);
    case "binary":
      headers.set("content-type", plan.mediaType);
      return base64Bytes(plan.arg, value);
    case "form": {
      const form = new URLSearchParams();
      for (const [name, v] of fields(plan.arg, value))
        form.append(name, typeof v === "object" ? JSON.stringify(v) : String(v));
      return form; // fetch sets application/x-www-form-urlencoded
    }
    case "multipart": {
      const form = new FormData();
      for (const [name, v] of fields(plan.arg, value)) {
        if (plan.binaryParts.has(name)) form.append(name, new Blob([base64Bytes(`${plan.arg}.${name}`, v)]), name);
        else if (typeof v === "object")
          form.append(name, new Blob([JSON.stringify(v)], { type: "application/json" }), `${name}.json`);
        else form.append(name, String(v));
      }
      return form; // fetch sets multipart/form-data with its boundary
    }
  }
}

/** The fields of a form body: an array's items each as the same name. */
function* fields(arg: string, value: unknown): Generator<[string, unknown]> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ArgumentError(`${arg} must be an object of form fields`);
  for (const [name, v] of Object.entries(value)) {
    if (!present(v)) continue;
    if (Array.isArray(v)) for (const item of v) yield [name, item];
    else yield [name, v];
  }
}

function base64Bytes(arg: string, value: unknown): Uint8Array {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/.test(value))
    throw new ArgumentError(`${arg} must be base64-encoded bytes`);
  return Buffer.from(value, "base64");
}

function applyCredentials(
  credentials: ApiCredentials | undefined,
  fallback: KeyPlacement | undefined,
  url: URL,
  headers: Headers,
  cookies: string[],
): void {
  if (!credentials) return;
  if (credentials.bearer !== undefined) headers.set("authorization", `Bearer ${credentials.bearer}`);
  if (credentials.basic) {
    const { username, password } = credentials.basic;
    headers.set("authorization", `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`);
  }
  if (credentials.apiKey) {
    const place = keyPlacement(credentials.apiKey, fallback);
    const { value } = credentials.apiKey;
    if (place.in === "header") headers.set(place.name, value);
    else if (place.in === "query") {
      // Appended, not through searchParams, which would re-encode the parameters already there.
      const piece = `${encodeURIComponent(place.name)}=${encodeURIComponent(value)}`;
      url.search = url.search ? `${url.search.slice(1)}&${piece}` : piece;
    } else cookies.push(`${place.name}=${encodeURIComponent(value)}`);
  }
  for (const [name, value] of Object.entries(credentials.headers ?? {})) headers.set(name, value);
}
