import { TASKS_EXTENSION } from "../protocol/tasks.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";

/** Whether the upstream server runs tools as tasks (2025-11-25's `tasks` slot, or the 2026-07-28 extension). */
export function runsToolsAsTasks(caps: ServerCapabilities): boolean {
  const legacy = caps.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return Boolean(legacy?.requests?.tools?.call || caps.extensions?.[TASKS_EXTENSION]);
}

/**
 * What the proxy declares: exactly what the upstream server declared (no listChanged,
 * subscribe or logging it did not promise), tasks in mcpkit's form (the proxy serves them
 * itself, in whichever revision its caller speaks), with `extra` laid over it.
 */
export function mirroredCapabilities(upstream: ServerCapabilities, extra?: ServerCapabilities): ServerCapabilities {
  const { tasks: _legacyTasks, ...caps } = upstream;
  const extensions = { ...caps.extensions };
  delete extensions[TASKS_EXTENSION];
  if (runsToolsAsTasks(upstream)) extensions[TASKS_EXTENSION] = {};
  const declared: ServerCapabilities = { ...caps };
  if (Object.keys(extensions).length > 0) declared.extensions = extensions;
  else delete declared.extensions;
  return { ...declared, ...extra };
}
