export type { Middleware, MiddlewareContext, Next } from "../connection/middleware-chain.js";
export { ErrorCode, McpError } from "../jsonrpc/errors.js";
export { mapErrors } from "./error-mapping.js";
export { forMethod, type MethodMiddleware, type MethodShapes } from "./for-method.js";
export { principalKey, RATE_LIMITED, type RateLimitOptions, rateLimit } from "./rate-limit.js";
export { type ResponseSizeOptions, responseSizeLimit } from "./response-size.js";
export { type LoggingOptions, logging, type TimingEntry, timing } from "./timing.js";
