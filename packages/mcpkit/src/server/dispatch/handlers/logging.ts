import { invalidParams } from "../../../jsonrpc/errors.js";
import { LOG_LEVELS, type LogLevel } from "../../../protocol/types/common.js";
import { type Methods, method } from "../method.js";

const isLevel = (level: unknown): level is LogLevel => LOG_LEVELS.includes(level as LogLevel);

/** server/utilities/logging: the level is per connection. */
export const loggingMethods: Methods<"logging/setLevel"> = {
  "logging/setLevel": method({
    capability: (caps) => caps.logging,
    params: ({ level }) => {
      if (!isLevel(level))
        throw invalidParams(`Invalid log level ${JSON.stringify(level)}: use one of ${LOG_LEVELS.join(", ")}`);
      return { level };
    },
    handler({ level }, { peer }) {
      peer.logLevel = level;
      return {};
    },
  }),
};
