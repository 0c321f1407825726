import { ErrorCode, McpError } from "mcpkit/jsonrpc";
import type { McpServer } from "mcpkit/server";
import { KNOWN_CITIES } from "./cities.js";
import { ProviderError, UnknownCityError, type WeatherProvider } from "./provider.js";
import { currentReport, forecastReport } from "./report.js";
import { UNITS, type Units } from "./units.js";

export const CITIES_URI = "weather://cities";

/** A weather failure as resources/read and prompts/get report it: -32602 for a city, -32603 for the provider. */
export function asProtocolError(error: unknown, data?: Record<string, unknown>): unknown {
  if (error instanceof UnknownCityError) return new McpError(ErrorCode.InvalidParams, error.message, data);
  if (error instanceof ProviderError) return new McpError(ErrorCode.InternalError, error.message, data);
  return error;
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The seed's resource of supported cities, and the weather of any city as resources whose
 * 2026-07-28 caching hints (ttlMs, public) match how long the server itself reuses the
 * provider's answer: a client may keep a read exactly as long as the server would.
 */
export function registerWeatherResources(
  server: McpServer,
  provider: WeatherProvider,
  options: { units: Units; cacheTtlMs: number },
): void {
  const complete = {
    city: (value: string, { ctx }: { ctx: { signal: AbortSignal } }) => provider.suggest(value, ctx.signal),
  };
  const cache = { ttlMs: options.cacheTtlMs, scope: "public" as const };
  const unitsOf = (value: string | string[] | undefined): Units => {
    const given = one(value);
    if (given === undefined || given === "") return options.units;
    if (!UNITS.includes(given as Units))
      throw new McpError(ErrorCode.InvalidParams, `units must be ${UNITS.join(" or ")}, not "${given}"`);
    return given as Units;
  };

  server.resource(
    CITIES_URI,
    {
      name: "cities",
      title: "Supported cities",
      description: provider.live
        ? "Cities the server knows by heart (the first completions); any place Open-Meteo's geocoding finds works too"
        : "The cities the offline sample data covers",
      mimeType: "application/json",
      // The list is built in: it changes only with a new version of the server.
      cache: { ttlMs: 24 * 3_600_000, scope: "public" },
    },
    () =>
      JSON.stringify(
        KNOWN_CITIES.map(({ name, aliases, country, latitude, longitude, timezone }) => ({
          name,
          aliases,
          country,
          latitude,
          longitude,
          timezone,
        })),
        null,
        2,
      ),
  );

  server.resourceTemplate(
    "weather://current/{city}{?units}",
    {
      name: "current-weather",
      title: "Current weather of a city",
      description: "What get_current_weather answers, as JSON",
      mimeType: "application/json",
      complete,
      cache,
    },
    async (uri, variables, ctx) => {
      try {
        const weather = await provider.current(one(variables.city) ?? "", ctx.signal);
        return JSON.stringify(currentReport(weather, unitsOf(variables.units), provider.source).structured, null, 2);
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    },
  );

  server.resourceTemplate(
    "weather://forecast/{city}{?days,units}",
    {
      name: "forecast",
      title: "Forecast of a city",
      description: `What get_forecast answers, as JSON (days: 1–${provider.maxForecastDays}, default 3)`,
      mimeType: "application/json",
      complete,
      cache,
    },
    async (uri, variables, ctx) => {
      try {
        const daysText = one(variables.days);
        const days = daysText === undefined || daysText === "" ? 3 : Number(daysText);
        if (!Number.isInteger(days) || days < 1 || days > provider.maxForecastDays)
          throw new McpError(
            ErrorCode.InvalidParams,
            `days must be a whole number from 1 to ${provider.maxForecastDays}`,
            { uri },
          );
        const forecast = await provider.forecast(one(variables.city) ?? "", days, ctx.signal);
        return JSON.stringify(forecastReport(forecast, unitsOf(variables.units), provider.source).structured, null, 2);
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    },
  );
}
