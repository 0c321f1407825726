import type { InitializeResult } from "../protocol/types/lifecycle.js";
import type { DiscoverResult } from "../protocol/types/modern.js";

/** What connect() learned: the InitializeResult of a handshake, or its equivalent from server/discover. */
export interface ServerDescription extends InitializeResult {
  era: "modern" | "legacy";
  /** The server/discover answer (modern era). */
  discover?: DiscoverResult;
}
