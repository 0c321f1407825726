export { type RequestKey, requestKey } from "../connection/request-values.js";
export * from "../content.js";
export { SKILLS_EXTENSION, type SkillEntry } from "../protocol/skills.js";
export {
  isTerminal,
  TASKS_EXTENSION,
  type TaskStatus,
  type TaskSupport,
  type WireTask,
} from "../protocol/tasks.js";
export {
  APP_MIME_TYPE,
  APPS_EXTENSION,
  type AppToolConfig,
  type AppToolVisibility,
  type AppViewConfig,
  type AppViewHtml,
  type AppViewMeta,
  appTool,
  appView,
  forAppHosts,
  supportsApps,
} from "./apps.js";
export type { ToolCatalogOptions } from "./catalog/catalog-options.js";
export type { Mount, MountedAs, MountItem, MountOptions } from "./compose/mount.js";
export { ClientRequestError } from "./dispatch/request-context.js";
export {
  type EventBus,
  InMemoryEventBus,
  type ListKind,
  namedKey,
  type PublishOptions,
  RecentKeys,
  type ServerEvent,
} from "./events.js";
export type {
  Context,
  ElicitFormRequest,
  ElicitOutcome,
  ElicitUrlRequest,
  InputOptions,
} from "./handler-context.js";
export { createServer, type Handle, McpServer, type ServerDefinitions } from "./mcp-server.js";
export type { ServerMiddleware, ServerMiddlewareContext } from "./middleware/message-context.js";
export { principalOf } from "./principal.js";
export type { Completer, CompletionContext } from "./registry/completer.js";
export { MAX_COMPLETION_VALUES } from "./registry/completer.js";
export type {
  PromptArgName,
  PromptArgs,
  PromptArgumentSpec,
  PromptArgValues,
  PromptConfig,
  PromptHandler,
  PromptReturn,
} from "./registry/prompt.js";
export type {
  ReadHandler,
  ReadReturn,
  ResourceConfig,
  ResourceTemplateConfig,
  TemplateReadHandler,
} from "./registry/resource.js";
export type { SkillConfig } from "./registry/skill.js";
export { readSkillDirectory } from "./registry/skill-directory.js";
export type {
  TaskOptions,
  ToolArgs,
  ToolConfig,
  ToolErrorResult,
  ToolHandler,
  ToolReturn,
} from "./registry/tool.js";
export type { CacheHint, CachingOptions, ServerOptions } from "./server-options.js";
export type { ServerSession, SessionOptions } from "./server-session.js";
export {
  InMemorySessionStore,
  type InMemorySessionStoreOptions,
  type SessionChange,
  type SessionMessage,
  type SessionRecord,
  type SessionStore,
} from "./session-store.js";
export { applyTaskPatch, InMemoryTaskStore, type InMemoryTaskStoreOptions } from "./tasks/memory-task-store.js";
export { TASK_DEFAULTS, type TaskServerOptions } from "./tasks/settings.js";
export {
  TaskLimitError,
  type TaskPage,
  type TaskPatch,
  type TaskQuota,
  type TaskRecord,
  type TaskStore,
} from "./tasks/store.js";
export { TaskWatchers, taskExpired } from "./tasks/watchers.js";
export type { Viewer, VisibilityRule } from "./visibility.js";
