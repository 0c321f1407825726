import type { BearerChallenge } from "../challenge.js";
import type { StoredTokens } from "./types.js";

export interface ScopeChoice {
  /** Scopes the user configured instead of the spec's selection. */
  configured: string | undefined;
  /** The challenge of the request that needs authorization, if any. */
  challenge: BearerChallenge | undefined;
  /** What was granted before (step-up keeps it). */
  current: StoredTokens | undefined;
  /** scopes_supported of the protected resource's metadata. */
  resourceScopes: readonly string[] | undefined;
  /** scopes_supported of the authorization server. */
  serverScopes: readonly string[] | undefined;
  /** Ask for offline_access when the authorization server offers it (a user's login only). */
  offlineAccess: boolean;
}

/**
 * authorization §Scope Selection Strategy: the configured scopes, else the challenge's
 * (added to what was granted on insufficient_scope), else the resource's; plus
 * offline_access when the server offers it (SEP-2207). Undefined when there is none.
 */
export function chooseScope(choice: ScopeChoice): string | undefined {
  const { challenge, current } = choice;
  let scopes = choice.configured?.split(" ");
  if (!scopes) {
    if (challenge?.scope) {
      scopes =
        challenge.error === "insufficient_scope" && current?.scope
          ? [...current.scope.split(" "), ...challenge.scope.split(" ")]
          : challenge.scope.split(" ");
    } else if (choice.resourceScopes?.length) {
      scopes = [...choice.resourceScopes];
    }
  }
  if (choice.offlineAccess && choice.serverScopes?.includes("offline_access")) {
    scopes = [...(scopes ?? []), "offline_access"];
  }
  const unique = [...new Set(scopes ?? [])].filter((s) => s !== "");
  return unique.length > 0 ? unique.join(" ") : undefined;
}
