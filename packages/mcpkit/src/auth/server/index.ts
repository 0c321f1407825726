export * from "./authorization/index.js";
export type { DPoPOptions } from "./dpop.js";
export { hmacNonces, type NonceSource } from "./dpop-nonce.js";
export { DPOP_ALGORITHMS } from "./dpop-proof.js";
export { type IntrospectionVerifierOptions, introspectionVerifier } from "./introspection-verifier.js";
export { type JwtVerifierOptions, jwtVerifier } from "./jwt-verifier.js";
export { KeySetUnavailableError, type RemoteKeySetOptions } from "./remote-keys.js";
export { memoryReplayCache, type ReplayCache } from "./replay-cache.js";
export {
  type AuthenticatedRequest,
  protectedResource,
  type ResourceServer,
  type ResourceServerOptions,
} from "./resource-server.js";
export { type AuthInfo, InvalidTokenError, type TokenVerifier, type UpstreamAccess } from "./types.js";
export { upstreamToken } from "./upstream-token.js";
