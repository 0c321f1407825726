export { MirrorLimitError } from "./mirror.js";
export type { MirrorLimits, UpstreamConnector } from "./options.js";
export { createProxy, type McpProxy, type ProxyOptions } from "./proxy.js";
