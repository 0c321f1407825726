/** How numbers are shown: metric (°C, km/h, mm) or imperial (°F, mph, in). Providers answer in metric. */
export type Units = "metric" | "imperial";

export const UNITS: readonly Units[] = ["metric", "imperial"];

const round1 = (n: number) => Math.round(n * 10) / 10;

export function temperature(celsius: number, units: Units): number {
  return round1(units === "imperial" ? (celsius * 9) / 5 + 32 : celsius);
}

export function speed(kmh: number, units: Units): number {
  return round1(units === "imperial" ? kmh / 1.609344 : kmh);
}

export function precipitation(mm: number, units: Units): number {
  return units === "imperial" ? Math.round((mm / 25.4) * 100) / 100 : round1(mm);
}

export const UNIT_LABELS = {
  metric: { temperature: "°C", speed: "km/h", precipitation: "mm" },
  imperial: { temperature: "°F", speed: "mph", precipitation: "in" },
} as const;

const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/** "NE" for 45°: where the wind comes from. */
export const compass = (degrees: number): string =>
  COMPASS[Math.round((((degrees % 360) + 360) % 360) / 45) % 8] as string;
