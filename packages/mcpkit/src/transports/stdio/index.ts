export { DEFAULT_MAX_MESSAGE_BYTES } from "../transport.js";
export {
  DEFAULT_INHERITED_ENV,
  type StdioClientOptions,
  type StdioClientTransport,
  stdioClientTransport,
} from "./client-transport.js";
export { type StdioServerOptions, stdioServerTransport } from "./server-transport.js";
