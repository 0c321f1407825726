import type { UpstreamIdentity, UpstreamProvider } from "./types.js";

/** The person the development sign-in approves. */
export const DEVELOPMENT_USER: UpstreamIdentity = {
  subject: "test-user",
  name: "Test User",
  email: "test-user@example.com",
};

/**
 * A stand-in for an identity provider while developing: everyone who comes is the test
 * user, at once, with no password. The authorization server serves it on a loopback
 * issuer only and refuses to start with it anywhere else.
 */
export function developmentUpstream(user: UpstreamIdentity = DEVELOPMENT_USER): UpstreamProvider {
  return {
    id: "dev",
    title: "Development sign-in",
    development: true,
    begin: async () => ({ kept: {}, identity: user }),
    finish: async () => ({ identity: user }),
  };
}
