import { describeWeather } from "./conditions.js";
import type { CurrentWeather, Forecast, Place } from "./provider.js";
import { compass, precipitation, speed, temperature, UNIT_LABELS, type Units } from "./units.js";

/** What the tools and resources answer: the same facts as text for people and as structured data. */

export const placeName = (p: Place) => [p.name, p.region, p.country].filter(Boolean).join(", ");

/** "just now" or "4 min ago": how old an answer is, so cached ones say so. */
function age(fetchedAt: number, now: number): string {
  const minutes = Math.floor((now - fetchedAt) / 60_000);
  return minutes < 1 ? "just now" : `${minutes} min ago`;
}

export function currentReport(w: CurrentWeather, units: Units, source: string, now = Date.now()) {
  const u = UNIT_LABELS[units];
  const structured = {
    city: w.place.name,
    place: placeName(w.place),
    latitude: w.place.latitude,
    longitude: w.place.longitude,
    timezone: w.place.timezone,
    time: w.time,
    units,
    temperature: temperature(w.temperatureC, units),
    apparentTemperature: temperature(w.apparentTemperatureC, units),
    humidity: w.humidity,
    windSpeed: speed(w.windKmh, units),
    windDirection: w.windDirection,
    precipitation: precipitation(w.precipitationMm, units),
    weatherCode: w.weatherCode,
    conditions: describeWeather(w.weatherCode),
    source,
    fetchedAt: new Date(w.fetchedAt).toISOString(),
  };
  const text = [
    `${structured.place}: current weather`,
    `Temperature: ${structured.temperature}${u.temperature} (feels like ${structured.apparentTemperature}${u.temperature})`,
    `Conditions: ${structured.conditions}`,
    `Humidity: ${w.humidity}%`,
    `Wind: ${structured.windSpeed} ${u.speed} from the ${compass(w.windDirection)}`,
    `Precipitation: ${structured.precipitation} ${u.precipitation}`,
    `Local time: ${w.time.replace("T", " ")} (${w.place.timezone})`,
    `Source: ${source}, fetched ${age(w.fetchedAt, now)}`,
  ].join("\n");
  return { text, structured };
}

export function forecastReport(f: Forecast, units: Units, source: string, now = Date.now()) {
  const u = UNIT_LABELS[units];
  const days = f.days.map((d) => ({
    date: d.date,
    weatherCode: d.weatherCode,
    conditions: describeWeather(d.weatherCode),
    min: temperature(d.minC, units),
    max: temperature(d.maxC, units),
    precipitation: precipitation(d.precipitationMm, units),
    precipitationChance: d.precipitationChance,
    windMax: speed(d.windMaxKmh, units),
  }));
  const structured = {
    city: f.place.name,
    place: placeName(f.place),
    latitude: f.place.latitude,
    longitude: f.place.longitude,
    timezone: f.place.timezone,
    units,
    days,
    source,
    fetchedAt: new Date(f.fetchedAt).toISOString(),
  };
  const text = [
    `${structured.place}: ${days.length}-day forecast`,
    ...days.map(
      (d, i) =>
        `Day ${i + 1} (${d.date}): ${d.conditions}, ${d.min}–${d.max}${u.temperature}, precipitation ${d.precipitation} ${u.precipitation} (${d.precipitationChance}% chance), wind up to ${d.windMax} ${u.speed}`,
    ),
    `Source: ${source}, fetched ${age(f.fetchedAt, now)}`,
  ].join("\n");
  return { text, structured };
}
