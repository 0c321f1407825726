import { taskLimits, taskOptions } from "../../commands/serve/task-flags.js";
import type { ServerFlags } from "../served.js";

/** `mcpkit serve everything`: the bounds of its tasks; it can run as a node of a cluster. */
export const flags: ServerFlags = {
  description: "every MCP feature under the conformance suite's fixture names",
  cluster: true,
  options: taskOptions,
  async create(values, { shared }) {
    const { createEverythingServer } = await import("./index.js");
    const tasks = { ...shared.tasks, ...taskLimits(values) };
    return { server: createEverythingServer({ ...shared, tasks }), close: async () => {} };
  },
};
