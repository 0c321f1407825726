export * from "./content.js";
export * from "./jsonrpc/index.js";
export { META } from "./protocol/meta.js";
export { LOG_LEVELS } from "./protocol/types/common.js";
export type * from "./protocol/types/index.js";
export {
  type TemplateValue,
  type TemplateVariableName,
  type TemplateVariables,
  type TemplateVariablesOf,
  UriTemplate,
} from "./protocol/uri-template.js";
export {
  atLeast,
  DEFAULT_NEGOTIATED_REVISION,
  isLegacyRevision,
  isModernRevision,
  isSupportedRevision,
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  type LegacyRevision,
  MODERN_REVISIONS,
  type ModernRevision,
  negotiate,
  REVISIONS,
  type Revision,
} from "./protocol/versions.js";
export * from "./schema/index.js";
export type { MessageInfo, SendOptions, Transport, TransportSink } from "./transports/transport.js";
