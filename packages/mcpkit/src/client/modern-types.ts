import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Meta } from "../protocol/types/common.js";

/** The 2026-07-28 shapes the client reads and sends (server/discover, basic/patterns). */

/** server/utilities/caching §Cacheable Model. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** server/discover §DiscoverResult. */
export interface DiscoverResult extends CacheHints {
  resultType?: string;
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  _meta?: Meta;
}

/** One entry of basic/patterns/mrtr §InputRequests. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** basic/patterns/mrtr §InputRequiredResult. */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: Meta;
}

/** basic/patterns/subscriptions §Notification Filter. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}
