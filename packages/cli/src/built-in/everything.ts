import { everythingOptions } from "@mcpkit/servers/everything/options";
import { defineFlags } from "./served.js";

/** `mcpkit serve everything`: the bounds of its tasks; it can run as a node of a cluster. */
export const flags = defineFlags({
  description: "every MCP feature under the conformance suite's fixture names",
  cluster: true,
  options: everythingOptions,
  async create(values, { shared }) {
    const { everythingServer } = await import("@mcpkit/servers/everything");
    return everythingServer({ ...values, serverOptions: shared });
  },
});
