// The security-critical modules `npm run mutate` mutates, in groups, each with the test
// files that can kill its mutants. Shared by stryker.config.mjs (what to mutate) and
// vitest.mutate.config.ts (what to run). Only in-process tests belong here: a test that
// runs the built CLI in a child process never sees a mutant.

const mcpkit = (path) => `packages/mcpkit/src/${path}`;
const workspace = (path) => `packages/servers/src/workspace/${path}`;

export const groups = {
  /**
   * The OAuth client: discovery and its issuer and resource checks, PKCE and state, the
   * resource on every grant, per-issuer registration, which token goes in which header.
   * Line ranges leave out scope selection, enterprise grants and error wording.
   */
  "auth-client": {
    mutate: [
      mcpkit("auth/client/oauth-client.ts:117-142"),
      mcpkit("auth/client/oauth-client.ts:177-197"),
      mcpkit("auth/client/oauth-client.ts:200-266"),
      mcpkit("auth/client/oauth-client.ts:300-409"),
      mcpkit("auth/client/grants.ts:30-35"),
      mcpkit("auth/client/grants.ts:84-97"),
      mcpkit("auth/client/grants.ts:133-193"),
      mcpkit("auth/client/grants.ts:264-283"),
      mcpkit("auth/client/discovery.ts:16-122"),
      mcpkit("auth/client/registration.ts:27-55"),
    ],
    tests: [
      "test/auth/client-checks.test.ts",
      "test/auth/client-trust.test.ts",
      "test/auth/client-login.test.ts",
      "test/auth/client-lifecycle.test.ts",
      "test/auth/dpop.test.ts",
      "test/auth/workload.test.ts",
    ],
  },
  /**
   * The resource server: bearer and DPoP token checks, audience, issuer, replay. Line ranges
   * keep a run to minutes: the token checks, not the challenge and metadata formatting.
   */
  "auth-server": {
    mutate: [
      mcpkit("auth/server/resource-server.ts:49-53"),
      mcpkit("auth/server/resource-server.ts:135-193"),
      mcpkit("auth/server/jwt-verifier.ts"),
      mcpkit("auth/server/introspection-verifier.ts:26-60"),
      mcpkit("auth/server/dpop.ts:65-98"),
      mcpkit("auth/server/dpop-proof.ts:53-117"),
      mcpkit("auth/server/dpop-nonce.ts"),
      mcpkit("auth/server/replay-cache.ts"),
      mcpkit("auth/server/types.ts:28-32"),
    ],
    tests: [
      "test/auth/resource-server.test.ts",
      "test/auth/token-checks.test.ts",
      "test/auth/dpop.test.ts",
      "test/auth/dpop-parts.test.ts",
      "test/auth/workload.test.ts",
      "test/auth/rate-limit.test.ts",
    ],
  },
  /** 2026-07-28 multi round-trip requests: the signed request state, its binding and digest. */
  rounds: {
    mutate: [
      mcpkit("server/principal.ts"),
      ...["request-state", "request-digest", "rounds"].map((f) => mcpkit(`server/eras/modern/${f}.ts`)),
    ],
    tests: [
      "test/auth/request-state-binding.test.ts",
      "packages/mcpkit/test/modern/request-digest.test.ts",
      "packages/mcpkit/test/modern/request-state.test.ts",
      "packages/mcpkit/test/modern/mrtr-answers.test.ts",
      "packages/mcpkit/test/modern/mrtr.test.ts",
      "packages/mcpkit/test/client-modern/mrtr.test.ts",
    ],
  },
  /**
   * HTTP sessions: bound to the principal that opened them (POST, GET, DELETE), capped per
   * client, and their life: DELETE, the idle sweep, close(), saving to a shared store.
   */
  sessions: {
    mutate: [
      mcpkit("endpoints/http/session-table.ts"),
      mcpkit("endpoints/http/stored-sessions.ts"),
      mcpkit("endpoints/http/session-admission.ts"),
      mcpkit("transports/http/client-address.ts"),
      mcpkit("endpoints/http/handler.ts:119-144"),
      mcpkit("endpoints/http/legacy-post.ts:78-110"),
    ],
    tests: [
      "test/auth/resource-server.test.ts",
      "test/auth/session-binding.test.ts",
      "packages/mcpkit/test/http-server/endpoint.test.ts",
      "packages/mcpkit/test/http-server/session-caps.test.ts",
      "packages/mcpkit/test/http-server/session-admission.test.ts",
      "packages/mcpkit/test/http-server/session-lifecycle.test.ts",
      "packages/mcpkit/test/http-server/shared-sessions.test.ts",
      "packages/mcpkit/test/fire-and-forget.test.ts",
    ],
  },
  /**
   * The workspace sandbox: path containment as written and after links, opening through
   * verified descriptors, the .git refusal, and which SQL may run.
   */
  workspace: {
    mutate: [
      workspace("files/guard.ts:40-112"),
      workspace("files/confined.ts:28-184"),
      workspace("roots/inside.ts"),
      workspace("roots/area.ts:33-43"),
      workspace("sqlite/policy.ts"),
    ],
    tests: [
      "test/workspace/guard.test.ts",
      "test/workspace/guard-links.test.ts",
      "test/workspace/confined.test.ts",
      "test/workspace/confined-edges.test.ts",
      "test/workspace/sql-policy.test.ts",
    ],
  },
};

/** The groups named in MUTATE (comma-separated), or all of them. */
export function chosenGroups(env = process.env) {
  const names = env.MUTATE ? env.MUTATE.split(",").map((n) => n.trim()) : Object.keys(groups);
  const unknown = names.filter((n) => !(n in groups));
  if (unknown.length > 0) {
    throw new Error(`MUTATE names no such group: ${unknown.join(", ")} (groups: ${Object.keys(groups).join(", ")})`);
  }
  return names.map((n) => groups[n]);
}
