import type { JsonObject } from "mcpkit";

/** A notifications/message as one line: level, logger, data (server/utilities/logging). */
export function formatLog(params: JsonObject): string {
  const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
  return `${String(params.level)}${params.logger ? ` [${String(params.logger)}]` : ""} ${data}`;
}
