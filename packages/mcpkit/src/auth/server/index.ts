export { type IntrospectionVerifierOptions, introspectionVerifier } from "./introspection-verifier.js";
export { type JwtVerifierOptions, jwtVerifier } from "./jwt-verifier.js";
export { protectedResource, type ResourceServer, type ResourceServerOptions } from "./resource-server.js";
export { type AuthInfo, InvalidTokenError, type TokenVerifier } from "./types.js";
