export type { Progress, RequestOptions } from "../connection/connection-options.js";
export { type HeaderParam, type HeaderScan, headerParamValues, scanHeaderParams } from "../protocol/mcp-headers.js";
export {
  SKILLS_EXTENSION,
  type SkillEntry,
  type SkillFrontmatter,
  type SkillResource,
} from "../protocol/skills.js";
export { TASKS_EXTENSION, type TaskStatus, type WireTask } from "../protocol/tasks.js";
export type {
  CacheHints,
  DiscoverResult,
  InputRequest,
  InputRequiredResult,
  SubscriptionFilter,
} from "../protocol/types/modern.js";
export type { ClientHandlers, ClientRequestContext } from "./answer.js";
export {
  type CallOptions,
  Client,
  type ClientMiddleware,
  type ClientMiddlewareContext,
  type ClientOptions,
  type ServerDescription,
} from "./client.js";
export { ToolOutputError } from "./output-schemas.js";
export { type LoadedSkill, type LoadSkillOptions, type SkillRefusal, SkillVerificationError } from "./skills.js";
export type { ListenOptions, Subscription, SubscriptionEnd, SubscriptionListener } from "./subscription.js";
export { type TaskResultOptions, ToolTask, type WatchOptions } from "./tasks.js";
export type { ToolResultOf } from "./typed-result.js";
