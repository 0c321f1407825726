import type { ServerOptions } from "mcpkit/server";
import type { Units } from "./units.js";

/** What `mcpkit serve weather` is told on the command line. */
export interface WeatherOptions {
  /** "offline" (built-in sample data, the default) or "open-meteo" (live, needs the network). */
  provider?: "offline" | "open-meteo";
  /** Units when a call names none (default metric). */
  units?: Units;
  /** How long a provider's answer is reused, ms (default 10 minutes); 0 turns the cache off. */
  cacheTtlMs?: number;
  /** How long one request to the provider may take, ms (default 10 000). */
  timeoutMs?: number;
  /** Open-Meteo's forecast endpoint (default https://api.open-meteo.com/v1/forecast). */
  forecastUrl?: string;
  /** Open-Meteo's geocoding endpoint (default https://geocoding-api.open-meteo.com/v1/search). */
  geocodingUrl?: string;
  /**
   * Serve as one node of a cluster (`--redis`), on the bus and key every node shares. Each
   * node keeps its own cache of the provider's answers, so two nodes may answer the same
   * question from answers fetched up to `cacheTtlMs` apart.
   */
  cluster?: Pick<ServerOptions, "eventBus" | "requestStateKey">;
}

export const DEFAULT_CACHE_TTL_MS = 10 * 60_000;
