import { ErrorCode, invalidParams, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { TASKS_EXTENSION } from "../../protocol/tasks.js";
import type { ClientPeer } from "../dispatch/client-peer.js";
import type { ToolEntry } from "../registry/tool.js";

/** A call that runs as a task; 2025-11-25 clients may ask for a TTL. */
export interface TaskPlan {
  requestedTtlMs?: number;
}

/** The Tasks extension §Capability Negotiation: what a client that cannot take a task is told. */
export function tasksCapabilityMissing(what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `${what} needs the client's ${TASKS_EXTENSION} extension capability, which this request did not declare`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/**
 * Decides whether a tools/call runs as a task. 2026-07-28: the server decides, for tools
 * that support tasks, when the request declares the extension. 2025-11-25: the client
 * asks with a `task` param (basic/utilities/tasks §Tool-Level Negotiation). Earlier
 * revisions have no tasks.
 */
export function taskPlan(tool: ToolEntry, params: JsonObject, peer: ClientPeer): TaskPlan | undefined {
  const support = tool.task?.support;
  const name = tool.key;
  switch (peer.rules.tasks) {
    case "extension": {
      if (support === undefined) return undefined;
      if (peer.clientCapabilities.extensions?.[TASKS_EXTENSION] !== undefined) return {};
      if (support === "required") throw tasksCapabilityMissing(`Tool ${name} runs only as a task: it`);
      return undefined;
    }
    case "legacy": {
      const task = params.task;
      if (task === undefined) {
        if (support === "required")
          throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} must be called as a task: add a "task" param`);
        return undefined;
      }
      if (typeof task !== "object" || task === null || Array.isArray(task))
        throw invalidParams('"task" must be an object such as { "ttl": 60000 }');
      if (support === undefined)
        throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} does not run as a task: call it without "task"`);
      const ttl = (task as { ttl?: unknown }).ttl;
      if (ttl !== undefined && (typeof ttl !== "number" || !(ttl > 0)))
        throw invalidParams('"task.ttl" must be a positive number of milliseconds');
      return ttl === undefined ? {} : { requestedTtlMs: ttl };
    }
    default:
      if (support === "required")
        throw new McpError(
          ErrorCode.MethodNotFound,
          `Tool ${name} runs only as a task, which protocol revision ${peer.rules.revision} does not have`,
        );
      return undefined;
  }
}
