import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for Open-Meteo's two public APIs, answering in their documented
 * shapes: geocoding (`/v1/search`: `{results: [...], generationtime_ms}`, no `results`
 * when nothing matches) and forecast (`/v1/forecast`: `current`/`current_units`,
 * `daily`/`daily_units` as parallel arrays, times local to `timezone=auto`). Bad
 * parameters get Open-Meteo's error body, `{"error": true, "reason": "…"}` with 400, as
 * the real API answers them. `failNext` makes the next request of a path fail a given way.
 */

interface FakePlace {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  elevation: number;
  feature_code: string;
  country_code: string;
  country: string;
  admin1: string;
  timezone: string;
  population: number;
}

export const PLACES: FakePlace[] = [
  place(2950159, "Berlin", 52.52437, 13.41053, "DE", "Germany", "Land Berlin", "Europe/Berlin"),
  place(2988507, "Paris", 48.85341, 2.3488, "FR", "France", "Île-de-France", "Europe/Paris"),
  place(4717560, "Paris", 33.66094, -95.55551, "US", "United States", "Texas", "America/Chicago"),
  place(1816670, "Beijing", 39.9075, 116.39723, "CN", "China", "Beijing", "Asia/Shanghai"),
  place(3448439, "São Paulo", -23.5475, -46.63611, "BR", "Brazil", "São Paulo", "America/Sao_Paulo"),
];

function place(
  id: number,
  name: string,
  latitude: number,
  longitude: number,
  country_code: string,
  country: string,
  admin1: string,
  timezone: string,
): FakePlace {
  return {
    id,
    name,
    latitude,
    longitude,
    elevation: 34,
    feature_code: "PPLC",
    country_code,
    country,
    admin1,
    timezone,
    population: 1_000_000,
  };
}

/** The variables Open-Meteo's forecast API accepts (a subset of its documented list). */
const CURRENT_VARIABLES = new Set([
  "temperature_2m",
  "relative_humidity_2m",
  "apparent_temperature",
  "is_day",
  "precipitation",
  "rain",
  "showers",
  "snowfall",
  "weather_code",
  "cloud_cover",
  "pressure_msl",
  "surface_pressure",
  "wind_speed_10m",
  "wind_direction_10m",
  "wind_gusts_10m",
]);
const DAILY_VARIABLES = new Set([
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "apparent_temperature_max",
  "apparent_temperature_min",
  "sunrise",
  "sunset",
  "precipitation_sum",
  "rain_sum",
  "precipitation_hours",
  "precipitation_probability_max",
  "wind_speed_10m_max",
  "wind_gusts_10m_max",
  "wind_direction_10m_dominant",
  "uv_index_max",
]);
const UNITS: Record<string, string> = {
  temperature_2m: "°C",
  apparent_temperature: "°C",
  relative_humidity_2m: "%",
  precipitation: "mm",
  weather_code: "wmo code",
  wind_speed_10m: "km/h",
  wind_direction_10m: "°",
  temperature_2m_max: "°C",
  temperature_2m_min: "°C",
  precipitation_sum: "mm",
  precipitation_probability_max: "%",
  wind_speed_10m_max: "km/h",
};

/** Figures per variable; daily ones grow a little each day so days differ. */
const CURRENT_VALUES: Record<string, number> = {
  temperature_2m: 14.3,
  apparent_temperature: 12.9,
  relative_humidity_2m: 71,
  precipitation: 0.1,
  weather_code: 61,
  wind_speed_10m: 17.6,
  wind_direction_10m: 245,
  is_day: 1,
};
const DAILY_VALUES: Record<string, (day: number) => number | null> = {
  weather_code: (d) => [3, 61, 80, 0, 2, 1, 45][d % 7] as number,
  temperature_2m_max: (d) => 16.2 + d,
  temperature_2m_min: (d) => 8.4 + d / 2,
  precipitation_sum: (d) => (d === 1 ? 4.7 : 0),
  // Open-Meteo reports null where it has no probability; the fake does for day 4.
  precipitation_probability_max: (d) => (d === 3 ? null : 10 * (d + 1)),
  wind_speed_10m_max: (d) => 20 + d,
};

export type Failure =
  | { status: number; body: string; headers?: Record<string, string> }
  | { hang: true }
  | { drop: true }
  | { bytes: number };

export interface FakeOpenMeteo {
  url: string;
  forecastUrl: string;
  geocodingUrl: string;
  /** Paths and queries asked, in order. */
  requests: URL[];
  /** The next request to `path` ("/v1/search" or "/v1/forecast") fails this way. */
  failNext(path: string, failure: Failure): void;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

const openMeteoError = (res: ServerResponse, reason: string) => json(res, 400, { error: true, reason });

function search(url: URL, res: ServerResponse) {
  const name = url.searchParams.get("name");
  if (name === null) return openMeteoError(res, "Parameter 'name' is required");
  const count = Number(url.searchParams.get("count") ?? 10);
  if (!Number.isInteger(count) || count < 1 || count > 100)
    return openMeteoError(res, "Parameter count must be between 1 and 100.");
  // As documented: a comma appends a country or first-level region that narrows the results.
  const [term = "", qualifier] = name.split(",").map((s) => s.trim().toLowerCase());
  if (term.length < 2) return json(res, 200, { generationtime_ms: 0.2 });
  const found = PLACES.filter(
    (p) =>
      (term.length < 3 ? p.name.toLowerCase() === term : p.name.toLowerCase().startsWith(term)) &&
      (!qualifier || [p.country, p.country_code, p.admin1].some((q) => q.toLowerCase() === qualifier)),
  ).slice(0, count);
  json(res, 200, found.length > 0 ? { results: found, generationtime_ms: 0.7 } : { generationtime_ms: 0.5 });
}

function localDate(timezone: string, addDays: number): string {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return format.format(new Date(Date.now() + addDays * 86_400_000));
}

function forecast(url: URL, res: ServerResponse) {
  const latitude = Number(url.searchParams.get("latitude"));
  const longitude = Number(url.searchParams.get("longitude"));
  if (!url.searchParams.has("latitude") || !Number.isFinite(latitude) || Math.abs(latitude) > 90)
    return openMeteoError(res, `Latitude must be in range of -90 to 90°. Given: ${url.searchParams.get("latitude")}.`);
  const days = Number(url.searchParams.get("forecast_days") ?? 7);
  if (!Number.isInteger(days) || days < 0 || days > 16)
    return openMeteoError(res, "Forecast days is invalid. Allowed range 0 to 16.");
  const current = url.searchParams.get("current")?.split(",") ?? [];
  const daily = url.searchParams.get("daily")?.split(",") ?? [];
  for (const v of current)
    if (!CURRENT_VARIABLES.has(v))
      return openMeteoError(
        res,
        `Cannot initialize SurfacePressureAndHeightVariable<VariableAndPreviousDay, ForecastPressureVariable, ForecastHeightVariable> from invalid String value ${v}.`,
      );
  for (const v of daily)
    if (!DAILY_VARIABLES.has(v))
      return openMeteoError(res, `Cannot initialize ForecastVariableDaily from invalid String value ${v}.`);
  const here = PLACES.find((p) => p.latitude === latitude && p.longitude === longitude);
  const timezone = url.searchParams.get("timezone") === "auto" ? (here?.timezone ?? "GMT") : "GMT";
  const body: Record<string, unknown> = {
    latitude: Math.round(latitude * 100) / 100,
    longitude: Math.round(longitude * 100) / 100,
    generationtime_ms: 0.05,
    utc_offset_seconds: 3600,
    timezone,
    timezone_abbreviation: "GMT+1",
    elevation: 38,
  };
  if (current.length > 0) {
    body.current_units = {
      time: "iso8601",
      interval: "seconds",
      ...Object.fromEntries(current.map((v) => [v, UNITS[v] ?? ""])),
    };
    body.current = {
      time: `${localDate(timezone, 0)}T10:15`,
      interval: 900,
      ...Object.fromEntries(current.map((v) => [v, CURRENT_VALUES[v] ?? 0])),
    };
  }
  if (daily.length > 0) {
    const dates = Array.from({ length: days }, (_, d) => localDate(timezone, d));
    body.daily_units = { time: "iso8601", ...Object.fromEntries(daily.map((v) => [v, UNITS[v] ?? ""])) };
    body.daily = {
      time: dates,
      ...Object.fromEntries(daily.map((v) => [v, dates.map((_, d) => DAILY_VALUES[v]?.(d) ?? 0)])),
    };
  }
  json(res, 200, body);
}

export async function startFakeOpenMeteo(): Promise<FakeOpenMeteo> {
  const requests: URL[] = [];
  const failures = new Map<string, Failure>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(url);
    const failure = failures.get(url.pathname);
    if (failure) {
      failures.delete(url.pathname);
      if ("hang" in failure) return void hanging.add(res);
      if ("drop" in failure) return void req.socket.destroy();
      if ("bytes" in failure) {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(`{"padding":"${"x".repeat(failure.bytes)}"}`);
      }
      return void res
        .writeHead(failure.status, failure.headers ?? { "content-type": "application/json; charset=utf-8" })
        .end(failure.body);
    }
    if (url.pathname === "/v1/search") return search(url, res);
    if (url.pathname === "/v1/forecast") return forecast(url, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    forecastUrl: `${url}/v1/forecast`,
    geocodingUrl: `${url}/v1/search`,
    requests,
    failNext: (path, failure) => failures.set(path, failure),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
