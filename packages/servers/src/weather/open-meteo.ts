import { ttlCache } from "./cache.js";
import { knownNamesStartingWith, normalizeName } from "./cities.js";
import { getJson } from "./http-json.js";
import { weatherOptions } from "./options.js";
import type { CurrentWeather, Forecast, Place, WeatherProvider } from "./provider.js";
import { ProviderError, UnknownCityError } from "./provider.js";

export interface OpenMeteoOptions {
  /** The forecast endpoint (a self-hosted Open-Meteo, say). */
  forecastUrl?: string;
  /** The geocoding endpoint. */
  geocodingUrl?: string;
  /** How long one request may take, ms (default 10 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const SERVICE = "Open-Meteo";
/** The forecast API's limit (its forecast_days parameter). */
const MAX_DAYS = 16;
const CURRENT = [
  "temperature_2m",
  "apparent_temperature",
  "relative_humidity_2m",
  "wind_speed_10m",
  "wind_direction_10m",
  "weather_code",
  "precipitation",
];
const DAILY = [
  "weather_code",
  "temperature_2m_min",
  "temperature_2m_max",
  "precipitation_sum",
  "precipitation_probability_max",
  "wind_speed_10m_max",
];

interface GeocodingResult {
  name?: unknown;
  latitude?: unknown;
  longitude?: unknown;
  country?: unknown;
  country_code?: unknown;
  admin1?: unknown;
  timezone?: unknown;
}

/** Open-Meteo's error bodies are `{"error": true, "reason": "…"}`. */
const errorReason = (body: unknown) => {
  const reason = (body as { reason?: unknown } | null)?.reason;
  return typeof reason === "string" ? reason : undefined;
};

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

function toPlace(result: GeocodingResult): Place | undefined {
  const { name, latitude, longitude } = result;
  if (typeof name !== "string" || typeof latitude !== "number" || typeof longitude !== "number") return undefined;
  return {
    name,
    country: str(result.country) ?? "",
    ...(str(result.country_code) && { countryCode: str(result.country_code) }),
    ...(str(result.admin1) && { region: str(result.admin1) }),
    latitude,
    longitude,
    timezone: str(result.timezone) ?? "UTC",
  };
}

/** A number from Open-Meteo's answer, or a ProviderError naming the field that is missing. */
function num(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new ProviderError(`${SERVICE} answered without ${field}; the API may have changed.`);
  return value;
}

/**
 * Live weather from Open-Meteo (no key needed): places through its geocoding API
 * (any language; "Paris, France" narrows by country or region), then the current
 * conditions and the daily forecast of the place, in its own time zone.
 */
export function openMeteoProvider(options: OpenMeteoOptions = {}): WeatherProvider {
  const forecastUrl = options.forecastUrl ?? weatherOptions.forecastUrl.default;
  const geocodingUrl = options.geocodingUrl ?? weatherOptions.geocodingUrl.default;
  const request = {
    service: SERVICE,
    timeoutMs: options.timeoutMs ?? weatherOptions.timeoutMs.default,
    fetch: options.fetch,
    errorReason,
  };
  // Places do not move: a day is a safe time to remember one.
  const places = ttlCache<Place>({ ttlMs: 24 * 3_600_000, maxEntries: 1000 });

  async function search(name: string, count: number, signal?: AbortSignal): Promise<Place[]> {
    const url = new URL(geocodingUrl);
    url.searchParams.set("name", name);
    url.searchParams.set("count", String(count));
    url.searchParams.set("language", "en");
    url.searchParams.set("format", "json");
    const body = (await getJson(url, { ...request, signal })) as { results?: unknown };
    if (body.results === undefined) return []; // No match: Open-Meteo leaves "results" out.
    if (!Array.isArray(body.results)) throw new ProviderError(`${SERVICE} geocoding answered in an unexpected shape.`);
    return body.results.flatMap((r: GeocodingResult) => toPlace(r) ?? []);
  }

  const locate = (city: string, signal?: AbortSignal) =>
    places.get(normalizeName(city), async () => {
      const [found] = await search(city, 1, signal);
      if (!found)
        throw new UnknownCityError(
          city,
          `${SERVICE}'s geocoding knows no place by that name; check the spelling, or add the country or region ("Springfield, Illinois").`,
        );
      return found;
    });

  async function weather(place: Place, query: Record<string, string>, signal?: AbortSignal) {
    const url = new URL(forecastUrl);
    url.searchParams.set("latitude", String(place.latitude));
    url.searchParams.set("longitude", String(place.longitude));
    url.searchParams.set("timezone", "auto");
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const body = await getJson(url, { ...request, signal });
    if (typeof body !== "object" || body === null)
      throw new ProviderError(`${SERVICE} answered in an unexpected shape.`);
    return body as { current?: Record<string, unknown>; daily?: Record<string, unknown[]>; timezone?: unknown };
  }

  return {
    source: `${SERVICE} (open-meteo.com)`,
    live: true,
    maxForecastDays: MAX_DAYS,
    async current(city, signal) {
      const place = await locate(city, signal);
      const body = await weather(place, { current: CURRENT.join(","), forecast_days: "1" }, signal);
      const c = body.current;
      if (!c) throw new ProviderError(`${SERVICE} answered without current conditions.`);
      return {
        place: { ...place, timezone: str(body.timezone) ?? place.timezone },
        time: str(c.time) ?? "",
        temperatureC: num(c.temperature_2m, "current.temperature_2m"),
        apparentTemperatureC: num(c.apparent_temperature, "current.apparent_temperature"),
        humidity: num(c.relative_humidity_2m, "current.relative_humidity_2m"),
        windKmh: num(c.wind_speed_10m, "current.wind_speed_10m"),
        windDirection: num(c.wind_direction_10m, "current.wind_direction_10m"),
        weatherCode: num(c.weather_code, "current.weather_code"),
        precipitationMm: num(c.precipitation, "current.precipitation"),
        fetchedAt: Date.now(),
      } satisfies CurrentWeather;
    },
    async forecast(city, days, signal) {
      const place = await locate(city, signal);
      const wanted = Math.max(1, Math.min(days, MAX_DAYS));
      const body = await weather(place, { daily: DAILY.join(","), forecast_days: String(wanted) }, signal);
      const d = body.daily;
      if (!d || !Array.isArray(d.time)) throw new ProviderError(`${SERVICE} answered without a daily forecast.`);
      const at = (field: string, i: number) => num(d[field]?.[i], `daily.${field}[${i}]`);
      return {
        place: { ...place, timezone: str(body.timezone) ?? place.timezone },
        days: d.time.slice(0, wanted).map((date, i) => ({
          date: String(date),
          weatherCode: at("weather_code", i),
          minC: at("temperature_2m_min", i),
          maxC: at("temperature_2m_max", i),
          precipitationMm: at("precipitation_sum", i),
          // Open-Meteo has no probability for some places and days (null): say 0 rather than guess.
          precipitationChance:
            typeof d.precipitation_probability_max?.[i] === "number" ? at("precipitation_probability_max", i) : 0,
          windMaxKmh: at("wind_speed_10m_max", i),
        })),
        fetchedAt: Date.now(),
      } satisfies Forecast;
    },
    async suggest(prefix, signal) {
      const known = knownNamesStartingWith(prefix);
      // Geocoding matches fuzzily from 3 characters on; shorter input gets the built-in names.
      if (normalizeName(prefix).length < 3) return known;
      try {
        const found = await search(prefix, 10, signal);
        const names = found.map((p) => (p.country ? `${p.name}, ${p.region ?? p.country}` : p.name));
        return [...new Set([...known, ...names])];
      } catch {
        return known; // Completion is a convenience: a failing service leaves the built-in names.
      }
    },
  };
}
