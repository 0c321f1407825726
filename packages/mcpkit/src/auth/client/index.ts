export { type BearerChallenge, bearerChallenge, parseBearerChallenge } from "../challenge.js";
export {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  type ResourceMetadata,
} from "./discovery.js";
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
} from "./types.js";
