import type { DiscoverResult } from "../../../protocol/types/modern.js";
import { newestFirst } from "../../../protocol/versions.js";
import { type Methods, method } from "../method.js";

/** server/discover (2026-07-28): versions, capabilities and instructions in one answer. */
export const discoverMethods: Methods<"server/discover"> = {
  "server/discover": method({
    handler(_params, { server }) {
      const result: DiscoverResult = {
        supportedVersions: newestFirst(server.revisions),
        capabilities: server.capabilities(),
      };
      if (server.options.instructions !== undefined) result.instructions = server.options.instructions;
      return result;
    },
  }),
};
