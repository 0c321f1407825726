import type { ClusterOptions } from "../handle.js";
import { describeOptions, type OptionValues } from "../options/describe.js";
import type { WeatherProvider } from "./provider.js";
import { UNITS } from "./units.js";

/** The weather server's options: `mcpkit serve weather`'s flags, a bundle's settings, docs/weather.md's table. */
export const weatherOptions = describeOptions({
  provider: {
    type: "choice",
    choices: ["offline", "open-meteo"],
    help: "offline (built-in sample data) or open-meteo (live, needs the network)",
    details: "`offline` (sample data for 17 cities) or `open-meteo` (any place Open-Meteo's geocoding finds).",
    default: "offline",
  },
  units: {
    type: "choice",
    choices: UNITS,
    placeholder: "units",
    help: "metric or imperial",
    details: "`metric` (°C, km/h, mm) or `imperial` (°F, mph, in), when a call names none.",
    default: "metric",
  },
  cacheTtlMs: {
    type: "duration",
    flag: "--cache-ttl",
    min: 0,
    help: "how long a provider's answer is reused: seconds, or 90s, 10m; 0 turns it off",
    default: 10 * 60_000,
  },
  timeoutMs: {
    type: "duration",
    flag: "--provider-timeout",
    bare: "ms",
    help: "how long one request to the provider may take: ms, or 10s",
    details: "How long one request to Open-Meteo may take: milliseconds, or `10s`.",
    default: 10_000,
  },
  forecastUrl: {
    type: "url",
    help: "Open-Meteo's forecast endpoint (for a self-hosted Open-Meteo)",
    default: "https://api.open-meteo.com/v1/forecast",
  },
  geocodingUrl: {
    type: "url",
    help: "Open-Meteo's geocoding endpoint",
    default: "https://geocoding-api.open-meteo.com/v1/search",
  },
});

/** What `weatherServer` takes: the options above, and what only code can give. */
export interface WeatherOptions extends OptionValues<typeof weatherOptions> {
  /** Your own weather source: replaces the one `provider` names. */
  source?: WeatherProvider;
  /**
   * Serve as one node of a cluster (`--redis`), on the bus and key every node shares. Each
   * node keeps its own cache of the provider's answers, so two nodes may answer the same
   * question from answers fetched up to `cacheTtlMs` apart.
   */
  cluster?: ClusterOptions;
}
