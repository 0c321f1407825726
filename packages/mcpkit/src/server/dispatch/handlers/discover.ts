import { newestFirst } from "../../../protocol/versions.js";
import type { MethodTable } from "../call.js";

/** server/discover (2026-07-28): versions, capabilities and instructions in one answer. */
export const discoverMethods: MethodTable = {
  "server/discover": {
    handler(_params, { server }) {
      const result: Record<string, unknown> = {
        supportedVersions: newestFirst(server.revisions),
        capabilities: server.capabilities(),
      };
      if (server.options.instructions !== undefined) result.instructions = server.options.instructions;
      return result;
    },
  },
};
