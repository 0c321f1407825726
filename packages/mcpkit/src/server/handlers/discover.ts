import { supportedVersions } from "../stateless.js";
import type { MethodTable } from "./types.js";

/** server/discover (2026-07-28): versions, capabilities and instructions in one answer. */
export const discoverMethods: MethodTable = {
  "server/discover": {
    handler(_params, { server }) {
      const result: Record<string, unknown> = {
        supportedVersions: supportedVersions(server),
        capabilities: server.capabilities(),
      };
      if (server.options.instructions !== undefined) result.instructions = server.options.instructions;
      return result;
    },
  },
};
