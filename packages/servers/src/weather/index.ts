import { createServer } from "mcpkit/server";
import type { ServerHandle } from "../handle.js";
import { VERSION } from "../version.js";
import { cachedProvider } from "./cached-provider.js";
import { offlineProvider } from "./offline.js";
import { openMeteoProvider } from "./open-meteo.js";
import { type WeatherOptions, weatherOptions } from "./options.js";
import { registerWeatherPrompt } from "./prompt.js";
import { registerWeatherResources } from "./resources.js";
import { registerWeatherTools } from "./tools.js";

export type { ClusterOptions, ServerHandle } from "../handle.js";
export type { OpenMeteoOptions } from "./open-meteo.js";
export { type WeatherOptions, weatherOptions } from "./options.js";
export type { CurrentWeather, Forecast, ForecastDay, Place, WeatherProvider } from "./provider.js";
export { ProviderError, UnknownCityError, WeatherError } from "./provider.js";
export type { Units } from "./units.js";
export { offlineProvider, openMeteoProvider };

/** The weather server holds nothing to release: `close()` is there for the shape every factory shares. */
export type WeatherServer = ServerHandle;

/**
 * The weather server of the seed's walkthrough: the resource of supported cities, the
 * tools get_current_weather and get_forecast, and the analyze_weather prompt, over a
 * provider (built-in sample data by default, or Open-Meteo) whose answers are cached.
 * `source` replaces the provider `provider` names (for your own weather source).
 *
 * ```ts
 * const { server } = weatherServer({ units: "imperial" });
 * hub.mount("weather", server);
 * ```
 */
export function weatherServer(options: WeatherOptions = {}): WeatherServer {
  const units = options.units ?? weatherOptions.units.default;
  const cacheTtlMs = options.cacheTtlMs ?? weatherOptions.cacheTtlMs.default;
  const source =
    options.source ??
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
