import { invalidParams } from "../../../jsonrpc/errors.js";
import { LOG_LEVELS, type LogLevel } from "../../../protocol/types/common.js";
import type { MethodTable } from "../call.js";

/** server/utilities/logging: the level is per connection. */
export const loggingMethods: MethodTable = {
  "logging/setLevel": {
    capability: (caps) => caps.logging,
    handler(params, { peer }) {
      const level = params.level;
      if (!LOG_LEVELS.includes(level as LogLevel))
        throw invalidParams(`Invalid log level ${JSON.stringify(level)}: use one of ${LOG_LEVELS.join(", ")}`);
      peer.logLevel = level as LogLevel;
      return {};
    },
  },
};
