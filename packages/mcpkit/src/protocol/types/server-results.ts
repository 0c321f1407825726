import type { SkillEntry } from "../skills.js";
import type { LegacyWireTask, WireTask } from "../tasks.js";
import type { EmptyResult, Meta, PaginatedResult } from "./common.js";
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "./features.js";
import type { CacheHints, DiscoverResult } from "./modern.js";

/** The Skills extension (SEP-2640): skills/list and skills/get. */
export interface ListSkillsResult extends PaginatedResult {
  skills: SkillEntry[];
}

export interface GetSkillResult {
  skill: SkillEntry;
  _meta?: Meta;
}

/**
 * The answer to a request that became a task: 2025-11-25 wraps the task
 * (basic/utilities/tasks §Creating Tasks); the 2026-07-28 extension inlines it with
 * `resultType: "task"`.
 */
export type CreateTaskResult = { task: LegacyWireTask; _meta?: Meta } | ({ resultType: "task" } & WireTask);

export interface ListTasksResult extends PaginatedResult {
  tasks: LegacyWireTask[];
}

/**
 * What a server answers to each request a client sends, by method, in any revision: the
 * result types the server's method table is checked against. A revision's own fields
 * (`resultType`, `serverInfo`, caching hints) are added by its era adapter.
 */
export interface ServerResults {
  ping: EmptyResult;
  "tools/list": ListToolsResult;
  "tools/call": CallToolResult | CreateTaskResult;
  "resources/list": ListResourcesResult;
  "resources/templates/list": ListResourceTemplatesResult;
  /** 2026-07-28 adds the caching hints of a resource's own `cache` setting. */
  "resources/read": ReadResourceResult & CacheHints;
  "resources/subscribe": EmptyResult;
  "resources/unsubscribe": EmptyResult;
  "prompts/list": ListPromptsResult;
  "prompts/get": GetPromptResult;
  "completion/complete": CompleteResult;
  "logging/setLevel": EmptyResult;
  "server/discover": DiscoverResult;
  /** Ends the stream: its `_meta` names the subscription. */
  "subscriptions/listen": EmptyResult;
  "skills/list": ListSkillsResult;
  "skills/get": GetSkillResult;
  "resources/directory/read": ListResourcesResult;
  "tasks/get": WireTask | LegacyWireTask;
  "tasks/update": EmptyResult;
  /** 2025-11-25 answers with the task; the extension acknowledges. */
  "tasks/cancel": EmptyResult | LegacyWireTask;
  /** The stored result of the task's request, tagged with the task in `_meta`. */
  "tasks/result": Record<string, unknown>;
  "tasks/list": ListTasksResult;
}
