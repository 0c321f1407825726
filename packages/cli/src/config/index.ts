export { clientEntry } from "./install/entry.js";
export { mergeInto } from "./install/merge.js";
export { type Placed, placeSpec } from "./install/placement.js";
export {
  CLIENTS as INSTALL_CLIENT_INFO,
  DEFAULT_SCOPE,
  INSTALL_CLIENTS,
  type InstallClient,
  type InstallTarget,
  installFile,
  type Scope,
} from "./install-target.js";
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
export { ConfigEntryError, type ServerSpec, serverSpec } from "./server-spec.js";
