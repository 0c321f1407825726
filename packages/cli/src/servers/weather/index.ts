import { createServer, type McpServer } from "mcpkit/server";
import { VERSION } from "../../version.js";
import { cachedProvider } from "./cached-provider.js";
import { offlineProvider } from "./offline.js";
import { openMeteoProvider } from "./open-meteo.js";
import { DEFAULT_CACHE_TTL_MS, type WeatherOptions } from "./options.js";
import { registerWeatherPrompt } from "./prompt.js";
import type { WeatherProvider } from "./provider.js";
import { registerWeatherResources } from "./resources.js";
import { registerWeatherTools } from "./tools.js";

export type { WeatherOptions } from "./options.js";
export type { CurrentWeather, Forecast, ForecastDay, Place, WeatherProvider } from "./provider.js";
export { ProviderError, UnknownCityError, WeatherError } from "./provider.js";
export { offlineProvider, openMeteoProvider };

export interface WeatherServer {
  server: McpServer;
  /** What is being served, in a few lines for the terminal. */
  summary: string;
  close(): Promise<void>;
}

/**
 * The weather server of the seed's walkthrough: the resource of supported cities, the
 * tools get_current_weather and get_forecast, and the analyze_weather prompt, over a
 * provider (built-in sample data by default, or Open-Meteo) whose answers are cached.
 * `provider` replaces the one `options.provider` names (for your own weather source).
 */
export function createWeatherServer(options: WeatherOptions = {}, provider?: WeatherProvider): WeatherServer {
  const units = options.units ?? "metric";
  const cacheTtlMs = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const source =
    provider ??
    (options.provider === "open-meteo"
      ? openMeteoProvider({
          ...(options.forecastUrl && { forecastUrl: options.forecastUrl }),
          ...(options.geocodingUrl && { geocodingUrl: options.geocodingUrl }),
          ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
        })
      : offlineProvider());
  const weather = cachedProvider(source, { ttlMs: cacheTtlMs });

  const server = createServer({
    name: "mcpkit-weather",
    title: "mcpkit weather",
    version: VERSION,
    description: "Current weather and forecasts by city",
    instructions: [
      `Weather from ${weather.source}${weather.live ? "" : "; the figures are samples, not real weather"}.`,
      'Cities by name in any language, optionally with the country or region ("Paris, France"); weather://cities lists the built-in ones.',
      `Units: ${units} unless a call asks for metric or imperial. Answers are reused for ${Math.round(cacheTtlMs / 1000)} s.`,
    ].join("\n"),
    // What a 2026-07-28 client may keep the lists for: they change only with the server.
    caching: { default: { ttlMs: 3_600_000, scope: "public" } },
    ...options.cluster,
  });
  registerWeatherTools(server, weather, units);
  registerWeatherResources(server, weather, { units, cacheTtlMs });
  registerWeatherPrompt(server, weather, units);

  return {
    server,
    summary: [
      `provider: ${weather.source}`,
      `units: ${units}`,
      `cache: ${cacheTtlMs > 0 ? `${Math.round(cacheTtlMs / 1000)} s` : "off"}`,
    ].join("\n"),
    close: async () => {},
  };
}
