import type { ServerFlags } from "../served.js";

/** `mcpkit serve everything`: no options of its own; it can run as a node of a cluster. */
export const flags: ServerFlags = {
  description: "every MCP feature under the conformance suite's fixture names",
  cluster: true,
  options: () => [],
  async create(_values, { shared }) {
    const { createEverythingServer } = await import("./index.js");
    return { server: createEverythingServer(shared), close: async () => {} };
  },
};
