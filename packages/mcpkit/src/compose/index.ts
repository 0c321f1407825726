export { createProxy, type McpProxy, type ProxyOptions } from "./proxy.js";
