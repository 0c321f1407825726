import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { principalOf } from "../principal.js";
import { isShown, type Showable, type Viewer } from "../visibility.js";
import type { Call } from "./method.js";

/**
 * Scopes on tools, resources and prompts (basic/authorization §Scope Challenge Handling).
 * Only requests that carry a verified token are checked: without authorization configured,
 * every definition is open. What a caller lacks the scopes for is hidden (not listed, and
 * unknown when called) or listed and refused with step-up, per ServerOptions.scopePolicy.
 */

/** The scopes a request was granted, or undefined when it carries no verified token. */
function granted(call: Call): string[] | undefined {
  const auth = call.inbound.info?.auth as { scopes?: unknown } | undefined;
  return Array.isArray(auth?.scopes) ? (auth.scopes as string[]) : undefined;
}

const NONE: readonly string[] = [];

export function lackingScopes(required: readonly string[] | undefined, call: Call): readonly string[] {
  if (!required || required.length === 0) return NONE;
  const have = granted(call);
  return have === undefined ? NONE : required.filter((s) => !have.includes(s));
}

/** What decides whether a definition exists for a caller: its scopes and its visibility rule. */
export interface Guarded extends Showable {
  readonly scopes: readonly string[] | undefined;
}

/**
 * Whether a definition appears in lists (and is known to calls) for this caller: the
 * session has not disabled it, its visibility rule shows it, and (with scopePolicy "hide")
 * the token's scopes cover it.
 */
export function visible(entry: Guarded, call: Call): boolean {
  if (call.peer.session?.isDisabled(entry.key)) return false;
  if (entry.visible && !isShown(entry, viewerOf(call))) return false;
  return call.server.options.scopePolicy === "hide" ? lackingScopes(entry.scopes, call).length === 0 : true;
}

/** The caller as a visibility rule sees it. */
export function viewerOf(call: Call): Viewer {
  const auth = call.inbound.info?.auth;
  const { session, clientInfo, clientCapabilities } = call.peer;
  return { principal: principalOf(auth), auth, session, clientInfo, clientCapabilities };
}

/** A request the token's scopes do not cover: HTTP answers it 403 with a step-up challenge. */
export class InsufficientScopeError extends McpError {
  readonly scopes: string[];

  constructor(what: string, scopes: string[]) {
    super(ErrorCode.InvalidRequest, `Insufficient scope: ${what} needs ${scopes.join(" ")}`, {
      reason: "insufficient_scope",
      requiredScopes: scopes,
    });
    this.name = "InsufficientScopeError";
    this.scopes = scopes;
  }
}

/** Throws InsufficientScopeError when the caller lacks any of `required`. */
function requireScopes(required: readonly string[] | undefined, call: Call, what: () => string): void {
  const lacking = lackingScopes(required, call);
  // Step-up asks for everything the definition needs, not only what is missing.
  if (lacking.length > 0) throw new InsufficientScopeError(what(), [...(required as string[])]);
}

/**
 * The one check of every request that names a tool, prompt, resource or template, in both
 * eras: tools/call, prompts/get, resources/read, resources/subscribe, subscriptions/listen
 * (each resource it names) and completion/complete (its prompt or template). A definition
 * the caller may not see is answered with `notFound()`, exactly as one that does not exist;
 * one it sees but lacks the scopes for, with InsufficientScopeError (step-up), which names
 * it as `${kind} ${name}`. Returns the entry, known to exist and to be allowed.
 */
export function guard<T extends Guarded>(
  entry: T | undefined,
  call: Call,
  kind: string,
  name: string,
  notFound: (name: string, call: Call) => McpError,
): T {
  if (!entry || !visible(entry, call)) throw notFound(name, call);
  // Every call passes here: nothing is allocated unless it is refused.
  if (entry.scopes) requireScopes(entry.scopes, call, () => `${kind} ${name}`);
  return entry;
}
