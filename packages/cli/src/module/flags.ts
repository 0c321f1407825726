import type { ServerFlags } from "../built-in/served.js";
import { loadServerModule } from "./server-module.js";

/**
 * `mcpkit serve ./server.js|.ts`: the user's module served like a built-in server, with
 * every flag serve takes. Over stdio, stdout carries the protocol, so what the module
 * writes with console.log goes to stderr instead.
 */
export function moduleFlags(file: string): ServerFlags {
  return {
    description: `your server module ${file}`,
    options: {},
    cluster: true,
    async create(_values, { shared, http }) {
      if (!http) console.log = console.info = console.debug = console.error;
      const server = await loadServerModule(file, shared);
      return { server, close: () => server.close() };
    },
  };
}
