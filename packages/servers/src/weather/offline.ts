import { findKnownCity, KNOWN_CITIES, type KnownCity, knownNamesStartingWith } from "./cities.js";
import type { Forecast, ForecastDay, WeatherProvider } from "./provider.js";
import { UnknownCityError } from "./provider.js";

/** [°C, feels like °C, humidity %, wind km/h, wind from °, WMO code, precipitation mm] */
type Now = [number, number, number, number, number, number, number];
/** [WMO code, min °C, max °C, precipitation mm, chance %, wind max km/h] */
type Day = [number, number, number, number, number, number];

/**
 * Built-in sample weather, the same every day: a typical mild-season week per city. It
 * lets the server work with no network (tests, demos, the seed's walkthrough), and every
 * answer says it is sample data. Beijing now and Shanghai's first three days are the
 * seed's own example figures.
 */
const SAMPLES: Record<string, { now: Now; days: Day[] }> = {
  Beijing: {
    now: [22, 21, 45, 11, 45, 0, 0],
    days: [
      [0, 14, 24, 0, 5, 15],
      [1, 13, 23, 0, 10, 18],
      [2, 12, 21, 0, 20, 22],
      [3, 11, 19, 0.2, 30, 20],
      [61, 10, 16, 3.5, 70, 24],
      [1, 9, 18, 0, 10, 16],
      [0, 10, 20, 0, 5, 12],
    ],
  },
  Shanghai: {
    now: [23, 24, 68, 14, 120, 1, 0],
    days: [
      [0, 20, 25, 0, 5, 14],
      [2, 18, 23, 0, 15, 16],
      [61, 16, 20, 4.2, 80, 20],
      [63, 15, 19, 11.3, 90, 26],
      [3, 16, 21, 0.4, 40, 18],
      [2, 17, 23, 0, 15, 15],
      [1, 18, 24, 0, 10, 13],
    ],
  },
  Guangzhou: {
    now: [28, 32, 78, 9, 160, 2, 0],
    days: [
      [2, 23, 30, 0, 20, 12],
      [80, 24, 29, 6.1, 70, 18],
      [95, 23, 28, 18.4, 85, 30],
      [81, 23, 28, 9.7, 75, 22],
      [2, 22, 29, 0.3, 30, 14],
      [1, 22, 30, 0, 15, 11],
      [2, 23, 31, 0, 20, 12],
    ],
  },
  Shenzhen: {
    now: [27, 31, 80, 13, 140, 3, 0],
    days: [
      [3, 24, 29, 0.5, 35, 16],
      [80, 24, 28, 5.2, 65, 20],
      [95, 23, 27, 21, 90, 34],
      [80, 23, 28, 4.4, 60, 19],
      [2, 23, 29, 0, 20, 15],
      [1, 23, 30, 0, 10, 13],
      [2, 24, 30, 0.1, 25, 14],
    ],
  },
  Hangzhou: {
    now: [21, 21, 72, 8, 90, 45, 0],
    days: [
      [45, 17, 24, 0, 10, 8],
      [2, 16, 25, 0, 15, 10],
      [61, 17, 21, 3.8, 75, 18],
      [63, 15, 18, 12.6, 90, 24],
      [3, 14, 19, 0.6, 45, 16],
      [2, 14, 22, 0, 15, 11],
      [0, 15, 24, 0, 5, 9],
    ],
  },
  Tokyo: {
    now: [19, 18, 60, 15, 200, 2, 0],
    days: [
      [2, 14, 21, 0, 20, 18],
      [3, 15, 20, 0.3, 35, 20],
      [63, 14, 17, 14.2, 90, 32],
      [61, 13, 17, 2.1, 60, 25],
      [1, 12, 20, 0, 10, 15],
      [0, 12, 21, 0, 5, 12],
      [2, 13, 21, 0, 20, 14],
    ],
  },
  Seoul: {
    now: [16, 15, 52, 12, 300, 1, 0],
    days: [
      [1, 9, 18, 0, 10, 14],
      [0, 8, 19, 0, 5, 12],
      [2, 10, 18, 0, 20, 16],
      [61, 11, 15, 5.6, 70, 22],
      [3, 9, 14, 0.8, 40, 20],
      [1, 7, 16, 0, 10, 15],
      [0, 7, 17, 0, 5, 11],
    ],
  },
  Singapore: {
    now: [30, 36, 76, 10, 150, 80, 0.4],
    days: [
      [80, 25, 31, 7.3, 70, 15],
      [95, 25, 31, 14.8, 80, 22],
      [81, 25, 31, 8.2, 75, 17],
      [80, 25, 32, 4.9, 65, 14],
      [95, 25, 31, 19.5, 85, 24],
      [80, 26, 32, 5.1, 60, 15],
      [81, 25, 31, 9.9, 75, 18],
    ],
  },
  Mumbai: {
    now: [31, 36, 70, 16, 270, 2, 0],
    days: [
      [2, 26, 33, 0, 15, 18],
      [1, 26, 34, 0, 10, 17],
      [2, 26, 33, 0, 20, 19],
      [80, 26, 32, 3.4, 50, 22],
      [2, 25, 33, 0, 20, 18],
      [1, 25, 34, 0, 10, 16],
      [0, 25, 34, 0, 5, 15],
    ],
  },
  Sydney: {
    now: [20, 19, 58, 22, 180, 1, 0],
    days: [
      [1, 14, 22, 0, 10, 24],
      [2, 15, 24, 0, 20, 20],
      [80, 16, 21, 4.5, 60, 30],
      [3, 15, 20, 0.6, 40, 26],
      [0, 13, 23, 0, 5, 18],
      [1, 14, 25, 0, 10, 17],
      [2, 16, 26, 0, 20, 21],
    ],
  },
  Cairo: {
    now: [29, 28, 30, 17, 340, 0, 0],
    days: [
      [0, 19, 30, 0, 0, 18],
      [0, 19, 31, 0, 0, 16],
      [1, 20, 32, 0, 0, 19],
      [0, 20, 31, 0, 0, 21],
      [0, 18, 29, 0, 0, 24],
      [1, 18, 29, 0, 0, 20],
      [0, 19, 30, 0, 0, 17],
    ],
  },
  London: {
    now: [13, 11, 81, 19, 240, 3, 0],
    days: [
      [3, 9, 14, 0.4, 40, 24],
      [61, 8, 13, 3.9, 75, 30],
      [80, 7, 12, 5.5, 70, 35],
      [2, 6, 13, 0, 25, 20],
      [1, 5, 14, 0, 15, 15],
      [3, 8, 14, 0.2, 35, 19],
      [61, 9, 13, 2.8, 65, 26],
    ],
  },
  Paris: {
    now: [15, 14, 70, 12, 220, 2, 0],
    days: [
      [2, 9, 16, 0, 20, 16],
      [3, 10, 15, 0.3, 40, 20],
      [61, 9, 13, 4.6, 80, 25],
      [80, 8, 13, 3.1, 60, 28],
      [1, 6, 15, 0, 10, 14],
      [0, 6, 17, 0, 5, 10],
      [2, 8, 17, 0, 20, 13],
    ],
  },
  Berlin: {
    now: [12, 10, 66, 16, 260, 3, 0],
    days: [
      [3, 6, 13, 0.1, 30, 20],
      [61, 7, 12, 2.7, 70, 24],
      [3, 6, 11, 0.5, 45, 22],
      [2, 4, 12, 0, 20, 16],
      [1, 3, 13, 0, 10, 14],
      [0, 3, 14, 0, 5, 11],
      [45, 5, 12, 0, 15, 8],
    ],
  },
  "New York": {
    now: [18, 18, 55, 18, 300, 1, 0],
    days: [
      [1, 11, 19, 0, 10, 19],
      [2, 12, 21, 0, 20, 16],
      [3, 13, 19, 0.5, 45, 21],
      [63, 12, 16, 16.8, 90, 32],
      [80, 10, 15, 3.3, 55, 27],
      [1, 8, 17, 0, 10, 18],
      [0, 9, 19, 0, 5, 14],
    ],
  },
  "San Francisco": {
    now: [16, 15, 74, 20, 270, 45, 0],
    days: [
      [45, 11, 17, 0, 10, 24],
      [2, 12, 19, 0, 15, 26],
      [1, 12, 21, 0, 5, 22],
      [0, 13, 23, 0, 0, 18],
      [1, 12, 20, 0, 5, 25],
      [3, 11, 17, 0.2, 30, 28],
      [45, 11, 16, 0, 10, 24],
    ],
  },
  "São Paulo": {
    now: [24, 25, 65, 9, 110, 2, 0],
    days: [
      [2, 17, 26, 0, 20, 12],
      [80, 18, 27, 6.4, 65, 16],
      [95, 18, 25, 22.1, 85, 28],
      [80, 17, 24, 5.8, 60, 18],
      [2, 16, 25, 0, 20, 12],
      [1, 16, 27, 0, 10, 10],
      [2, 17, 28, 0, 20, 11],
    ],
  },
};

const MAX_DAYS = 7;

/** "YYYY-MM-DD" of `time` in `timeZone`, plus `addDays` (the en-CA format is ISO's order). */
function localDate(time: number, timeZone: string, addDays = 0): string {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return format.format(new Date(time + addDays * 86_400_000));
}

/** "HH:00" of `time` in `timeZone`: sample observations are on the hour. */
function localHour(time: number, timeZone: string): string {
  const hour = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(new Date(time));
  return `${hour}:00`;
}

export interface OfflineOptions {
  /** The clock the sample dates follow (tests pin it). */
  now?: () => number;
}

/** The default provider: built-in sample data for the known cities, no network. */
export function offlineProvider(options: OfflineOptions = {}): WeatherProvider {
  const now = options.now ?? Date.now;
  const find = (query: string): KnownCity => {
    const found = findKnownCity(query);
    if (!found)
      throw new UnknownCityError(
        query,
        `The offline sample data covers ${KNOWN_CITIES.map((c) => c.name).join(", ")} (see weather://cities); start the server with --provider open-meteo for any other place.`,
      );
    return found;
  };
  const place = ({ aliases: _, ...rest }: KnownCity) => rest;
  const sample = (city: KnownCity) => SAMPLES[city.name] as (typeof SAMPLES)[string];
  return {
    source: "offline sample data (not a real observation)",
    live: false,
    maxForecastDays: MAX_DAYS,
    async current(query) {
      const city = find(query);
      const [temperatureC, apparentTemperatureC, humidity, windKmh, windDirection, weatherCode, precipitationMm] =
        sample(city).now;
      const t = now();
      return {
        place: place(city),
        time: `${localDate(t, city.timezone)}T${localHour(t, city.timezone)}`,
        temperatureC,
        apparentTemperatureC,
        humidity,
        windKmh,
        windDirection,
        weatherCode,
        precipitationMm,
        fetchedAt: t,
      };
    },
    async forecast(query, days) {
      const city = find(query);
      const t = now();
      const list: ForecastDay[] = sample(city)
        .days.slice(0, Math.min(days, MAX_DAYS))
        .map(([weatherCode, minC, maxC, precipitationMm, precipitationChance, windMaxKmh], i) => ({
          date: localDate(t, city.timezone, i),
          weatherCode,
          minC,
          maxC,
          precipitationMm,
          precipitationChance,
          windMaxKmh,
        }));
      return { place: place(city), days: list, fetchedAt: t } satisfies Forecast;
    },
    async suggest(prefix) {
      return knownNamesStartingWith(prefix);
    },
  };
}
