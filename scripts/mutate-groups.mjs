// The security-critical modules `npm run mutate` mutates, in groups, each with the test
// files that can kill its mutants. Shared by stryker.config.mjs (what to mutate) and
// vitest.mutate.config.ts (what to run). Only in-process tests belong here: a test that
// runs the built CLI in a child process never sees a mutant.

const mcpkit = (path) => `packages/mcpkit/src/${path}`;
const workspace = (path) => `packages/cli/src/servers/workspace/${path}`;

export const groups = {
  /** The OAuth client: discovery, PKCE and state, grants with their resource, registration. */
  "auth-client": {
    mutate: ["oauth-client", "grants", "discovery", "registration"].map((f) => mcpkit(`auth/client/${f}.ts`)),
    tests: [
      "test/auth/client-checks.test.ts",
      "test/auth/client-login.test.ts",
      "test/auth/dpop.test.ts",
      "test/auth/workload.test.ts",
    ],
  },
  /** The resource server: bearer and DPoP token checks, audience, issuer, replay. */
  "auth-server": {
    mutate: [mcpkit("auth/server/**/*.ts"), `!${mcpkit("auth/server/index.ts")}`, `!${mcpkit("auth/server/types.ts")}`],
    tests: [
      "test/auth/resource-server.test.ts",
      "test/auth/dpop.test.ts",
      "test/auth/dpop-parts.test.ts",
      "test/auth/workload.test.ts",
      "test/auth/client-login.test.ts",
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
  /** HTTP sessions: bound to the principal that opened them, capped per client. */
  sessions: {
    mutate: [mcpkit("endpoints/http/sessions.ts"), mcpkit("endpoints/http/session-admission.ts")],
    tests: [
      "test/auth/resource-server.test.ts",
      "packages/mcpkit/test/http-server/endpoint.test.ts",
      "packages/mcpkit/test/http-server/session-caps.test.ts",
    ],
  },
  /** The workspace sandbox: path containment, opening without following links, SQL policy. */
  workspace: {
    mutate: [
      workspace("files/guard.ts"),
      workspace("files/confined.ts"),
      workspace("files/open.ts"),
      workspace("roots/inside.ts"),
      workspace("sqlite/policy.ts"),
    ],
    tests: ["test/workspace/guard.test.ts", "test/workspace/confined.test.ts"],
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
