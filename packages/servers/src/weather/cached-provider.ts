import { ttlCache } from "./cache.js";
import { normalizeName } from "./cities.js";
import type { CurrentWeather, Forecast, WeatherProvider } from "./provider.js";

/**
 * The provider behind a cache of its answers, fresh for `ttlMs`: the same span the
 * 2026-07-28 caching hints of the weather resources announce (server/utilities/caching).
 * A cached answer keeps the time it was fetched, so every answer can say how old it is.
 */
export function cachedProvider(
  provider: WeatherProvider,
  options: { ttlMs: number; now?: () => number },
): WeatherProvider {
  const current = ttlCache<CurrentWeather>(options);
  const forecast = ttlCache<Forecast>(options);
  return {
    source: provider.source,
    live: provider.live,
    maxForecastDays: provider.maxForecastDays,
    // The shared fetch is not tied to one caller's signal: another caller may be waiting on it.
    current: (city, signal) =>
      abortable(
        current.get(normalizeName(city), () => provider.current(city)),
        signal,
      ),
    forecast: (city, days, signal) =>
      abortable(
        forecast.get(`${normalizeName(city)}|${days}`, () => provider.forecast(city, days)),
        signal,
      ),
    suggest: (prefix, signal) => provider.suggest(prefix, signal),
  };
}

/** Rejects when `signal` aborts, without stopping the work others may share. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}
