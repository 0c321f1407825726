import { ErrorCode } from "../jsonrpc/errors.js";
import { atLeast, isModernRevision, REVISIONS, type Revision } from "./versions.js";

/**
 * What differs between revisions, as data. Handlers read this table instead of
 * comparing version strings.
 */
export interface RevisionRules {
  readonly revision: Revision;
  /** JSON-RPC batches (only 2025-03-26 allows them). */
  readonly batches: boolean;
  /** Every request and notification method the revision defines. */
  readonly methods: ReadonlySet<string>;
  /** Content block types a tool result or prompt message may carry. */
  readonly contentTypes: ReadonlySet<string>;
  /** Tool argument validation failures: tool execution errors (isError) or -32602. */
  readonly toolInputErrorsAsResults: boolean;
  /** The code for reading an unknown resource. */
  readonly resourceNotFoundCode: number;
  /** `outputSchema` on tools and `structuredContent` on results. */
  readonly structuredOutput: boolean;
  /** `title` on tools, prompts, resources and implementations. */
  readonly titles: boolean;
  /** `_meta` on the tools, prompts, resources and templates a list describes (2025-06-18). */
  readonly descriptorMeta: boolean;
  /** Tool annotations. */
  readonly toolAnnotations: boolean;
  /** `icons` on tools, prompts, resources and implementations; `websiteUrl`. */
  readonly icons: boolean;
  /** `lastModified` in annotations (2025-06-18). */
  readonly annotationLastModified: boolean;
  /** URL-mode elicitation (2025-11-25). */
  readonly urlElicitation: boolean;
  /** Titled and multi-select enums, and defaults on every field, in elicitation forms (2025-11-25). */
  readonly richElicitationForms: boolean;
  /** `tools` and `toolChoice` in sampling requests (2025-11-25). */
  readonly samplingTools: boolean;
  /** `context` in completion/complete (2025-06-18). */
  readonly completionContext: boolean;
  /**
   * An error about a message whose id could not be read carries `id: null` (JSON-RPC 2.0);
   * 2025-11-25 leaves the id out instead (basic/index §Error Responses).
   */
  readonly unreadableIdNull: boolean;
  /** A modern revision: per-request `_meta` instead of a handshake, `resultType` on results (2026-07-28). */
  readonly modern: boolean;
  /**
   * Which tasks wire the revision speaks: 2025-11-25's utility ("legacy": a `task` param,
   * tasks/result and tasks/list), the 2026-07-28 extension ("extension": server-directed,
   * tasks/update, results inlined), or none.
   */
  readonly tasks: "legacy" | "extension" | undefined;
}

const base2024 = [
  "initialize",
  "notifications/initialized",
  "ping",
  "notifications/cancelled",
  "notifications/progress",
  "tools/list",
  "tools/call",
  "notifications/tools/list_changed",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
  "prompts/list",
  "prompts/get",
  "notifications/prompts/list_changed",
  "completion/complete",
  "logging/setLevel",
  "notifications/message",
  "roots/list",
  "notifications/roots/list_changed",
  "sampling/createMessage",
];

// basic/versioning (2026-07-28): no handshake, ping, setLevel or resource subscriptions
// (nor roots/list_changed); server requests travel inside results (MRTR) and change
// notifications on subscriptions/listen.
const removedIn2026 = new Set([
  "initialize",
  "notifications/initialized",
  "ping",
  "resources/subscribe",
  "resources/unsubscribe",
  "logging/setLevel",
  "notifications/roots/list_changed",
]);
const modernMethods = [
  ...base2024.filter((method) => !removedIn2026.has(method)),
  "server/discover",
  "subscriptions/listen",
  "notifications/subscriptions/acknowledged",
  "elicitation/create",
];

// Extension methods, on every revision; each exists only where the server declares its extension.
const extensionMethods = [
  // The Skills extension (SEP-2640).
  "skills/list",
  "skills/get",
  "resources/directory/read",
];

// basic/utilities/tasks (2025-11-25) and the Tasks extension (2026-07-28), which dropped
// tasks/result and tasks/list and added tasks/update.
const TASK_METHODS = {
  legacy: ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "notifications/tasks/status"],
  extension: ["tasks/get", "tasks/update", "tasks/cancel", "notifications/tasks"],
} as const;

function rules(revision: Revision): RevisionRules {
  const modern = isModernRevision(revision);
  const methods = new Set([...(modern ? modernMethods : base2024), ...extensionMethods]);
  if (!modern && atLeast(revision, "2025-06-18")) methods.add("elicitation/create");
  if (revision === "2025-11-25") methods.add("notifications/elicitation/complete");
  const tasks = modern ? "extension" : revision === "2025-11-25" ? "legacy" : undefined;
  if (tasks) for (const method of TASK_METHODS[tasks]) methods.add(method);
  const contentTypes = new Set(["text", "image", "resource"]);
  if (atLeast(revision, "2025-03-26")) contentTypes.add("audio");
  if (atLeast(revision, "2025-06-18")) contentTypes.add("resource_link");
  return {
    revision,
    batches: revision === "2025-03-26",
    methods,
    contentTypes,
    toolInputErrorsAsResults: atLeast(revision, "2025-11-25"),
    // server/resources §Error Handling: -32602 from 2026-07-28.
    resourceNotFoundCode: modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound,
    structuredOutput: atLeast(revision, "2025-06-18"),
    titles: atLeast(revision, "2025-06-18"),
    descriptorMeta: atLeast(revision, "2025-06-18"),
    toolAnnotations: atLeast(revision, "2025-03-26"),
    icons: atLeast(revision, "2025-11-25"),
    annotationLastModified: atLeast(revision, "2025-06-18"),
    urlElicitation: atLeast(revision, "2025-11-25"),
    richElicitationForms: atLeast(revision, "2025-11-25"),
    samplingTools: atLeast(revision, "2025-11-25"),
    completionContext: atLeast(revision, "2025-06-18"),
    unreadableIdNull: !atLeast(revision, "2025-11-25"),
    modern,
    tasks,
  };
}

const table = new Map<Revision, RevisionRules>(REVISIONS.map((r) => [r, rules(r)]));

export function revisionRules(revision: Revision): RevisionRules {
  const found = table.get(revision);
  if (!found) throw new Error(`Unknown protocol revision ${revision}`);
  return found;
}
