/**
 * The gateway: one MCP endpoint for a team's servers, signed in once, governed by a policy
 * and audited (docs/gateway.md). `readGatewayConfig` reads and checks its configuration file;
 * `gatewayServer` serves it; `watchConfig` reloads it as the file changes.
 */
export { type AuditRecord, type LogEmitter, verifyAuditLog } from "./audit/audit-log.js";
export { type ConfigDiff, describeDiff, diffConfigs } from "./config/diff.js";
export { fileAccessProblem } from "./config/file-access.js";
export { type ConfigProblem, GatewayConfigError } from "./config/problems.js";
export { type ReadOptions, readGatewayConfig } from "./config/read.js";
export { CONFIG_FILE, type Field, keyPaths } from "./config/schema.js";
export type {
  GatewayConfig,
  PersonToken,
  PolicyRule,
  PrincipalMatch,
  RateConfig,
  Selection,
  UpstreamConfig,
  UpstreamTarget,
  VirtualServerConfig,
} from "./config/types.js";
export { type Gateway, type GatewayOptions, gatewayServer } from "./gateway.js";
export { type GatewayHealth, healthHandler, isLoopback } from "./health.js";
export type { UpstreamHealth, UpstreamState } from "./upstream/upstream.js";
export { type ConfigWatch, type WatchOptions, watchConfig } from "./watch.js";
