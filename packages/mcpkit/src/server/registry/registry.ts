import type { ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation } from "../../protocol/types/common.js";
import type { Revision } from "../../protocol/versions.js";
import type { EventBus } from "../events.js";
import type { ServerMiddleware } from "../middleware/message-context.js";
import type { ServerOptions } from "../server-options.js";
import type { TaskSettings } from "../tasks/settings.js";
import type { FeatureSet } from "./feature-set.js";
import type { PromptEntry } from "./prompt.js";
import type { ResourceEntry, TemplateEntry } from "./resource.js";
import type { SkillDefinition } from "./skill.js";
import type { ToolEntry } from "./tool.js";

/**
 * The user's server definition as the method handlers and era adapters read it: what is
 * registered, the options, and the bus its changes travel on. `McpServer` is the one
 * implementation; handlers depend on this interface, never on the class.
 */
export interface Registry {
  readonly info: Implementation;
  readonly options: Readonly<ServerOptions>;
  readonly tools: FeatureSet<ToolEntry>;
  readonly resources: FeatureSet<ResourceEntry>;
  readonly templates: FeatureSet<TemplateEntry>;
  readonly prompts: FeatureSet<PromptEntry>;
  /** Skills (the Skills extension): their files are in `resources` too. */
  readonly skills: FeatureSet<SkillDefinition>;
  readonly pageSize: number;
  /** The revisions served, oldest first. */
  readonly revisions: readonly Revision[];
  readonly events: EventBus;
  /** Middleware around every message from a client, in order; undefined when none is installed. */
  readonly middleware: readonly ServerMiddleware[] | undefined;
  /** Signs multi round-trip request state (ServerOptions.requestStateKey). */
  readonly requestStateKey: Buffer;
  /** Where tasks are kept, and their defaults (ServerOptions.tasks). */
  readonly taskSettings: TaskSettings;
  /** What this server declares: derived from what is registered, shared until it changes. */
  capabilities(): ServerCapabilities;
  /** Unexpected failures (ServerOptions.onError). */
  onError(error: unknown): void;
  /** Long-lived requests (subscriptions/listen) register how to end them on close(). */
  onClose(close: (reason: unknown) => void): () => void;
}
