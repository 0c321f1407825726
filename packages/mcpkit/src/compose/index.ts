export { MirrorLimitError } from "./mirror.js";
export { createProxy, type McpProxy, type ProxyOptions } from "./proxy.js";
export type { MirrorLimits, UpstreamConnector } from "./proxy-options.js";
