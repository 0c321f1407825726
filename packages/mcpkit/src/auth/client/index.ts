export {
  type AuthChallenge,
  type BearerChallenge,
  bearerChallenge,
  parseAuthChallenge,
  parseBearerChallenge,
  parseChallenges,
} from "../challenge.js";
export {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  type ResourceMetadata,
} from "./discovery.js";
export type { DPoPKey } from "./dpop.js";
export { OAuthError } from "./errors.js";
export { type LoopbackOptions, loopbackRedirect } from "./loopback.js";
export { OAuthClient, type OAuthClientOptions } from "./oauth-client.js";
export { fileStorage, memoryStorage, type OAuthStorage } from "./storage.js";
export type {
  ClientRegistration,
  EnterpriseCredentials,
  MachineCredentials,
  RedirectHandler,
  StoredTokens,
  WorkloadIdentity,
} from "./types.js";
export { fileAssertion } from "./workload.js";
