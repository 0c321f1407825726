import type { ServerCapabilities } from "./capabilities.js";
import type { Meta } from "./common.js";

/** The results and shapes only modern revisions have (2026-07-28). */

/** server/utilities/caching §Cacheable Model: who may share a cached result. */
export type CacheScope = "public" | "private";

/** server/utilities/caching §Cacheable Model: the hints on a cacheable result. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: CacheScope;
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
