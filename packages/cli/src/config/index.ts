export { clientEntry, DEFAULT_SCOPE, installFile, type Scope } from "./install-target.js";
export { parseJsonc } from "./jsonc.js";
export { CLIENTS, type ClientName, type ConfigFile, herePlace, type Place } from "./locations.js";
export { type Merged, mergeEntry } from "./merge-entry.js";
export {
  type ConfigOptions,
  configFiles,
  findServer,
  listServers,
  type NamedServer,
  type ServerList,
  ServerNotFound,
} from "./resolve.js";
export { ConfigEntryError, expand, type ServerSpec, serverSpec } from "./server-spec.js";
