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
}

export const DEFAULT_CACHE_TTL_MS = 10 * 60_000;
