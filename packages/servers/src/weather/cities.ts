import type { Place } from "./provider.js";

/** A city the server knows by heart: its place, and the other names people call it. */
export interface KnownCity extends Place {
  aliases: string[];
}

/**
 * The built-in cities: the five of the seed's walkthrough (by their Chinese names too) and
 * some of the world's largest. The offline provider has data for exactly these; with the
 * Open-Meteo provider they are the first completions, and any other place name works too.
 */
export const KNOWN_CITIES: readonly KnownCity[] = [
  city("Beijing", "China", "CN", 39.9075, 116.3972, "Asia/Shanghai", ["北京", "Peking"]),
  city("Shanghai", "China", "CN", 31.2222, 121.4581, "Asia/Shanghai", ["上海"]),
  city("Guangzhou", "China", "CN", 23.1167, 113.25, "Asia/Shanghai", ["廣州", "广州", "Canton"]),
  city("Shenzhen", "China", "CN", 22.5455, 114.0683, "Asia/Shanghai", ["深圳"]),
  city("Hangzhou", "China", "CN", 30.2936, 120.1614, "Asia/Shanghai", ["杭州"]),
  city("Tokyo", "Japan", "JP", 35.6895, 139.6917, "Asia/Tokyo", ["東京", "东京"]),
  city("Seoul", "South Korea", "KR", 37.566, 126.9784, "Asia/Seoul", ["서울"]),
  city("Singapore", "Singapore", "SG", 1.2897, 103.8501, "Asia/Singapore", []),
  city("Mumbai", "India", "IN", 19.0728, 72.8826, "Asia/Kolkata", ["Bombay"]),
  city("Sydney", "Australia", "AU", -33.8678, 151.2073, "Australia/Sydney", []),
  city("Cairo", "Egypt", "EG", 30.0626, 31.2497, "Africa/Cairo", ["القاهرة"]),
  city("London", "United Kingdom", "GB", 51.5085, -0.1257, "Europe/London", []),
  city("Paris", "France", "FR", 48.8534, 2.3488, "Europe/Paris", []),
  city("Berlin", "Germany", "DE", 52.5244, 13.4105, "Europe/Berlin", []),
  city("New York", "United States", "US", 40.7143, -74.006, "America/New_York", ["NYC", "New York City"]),
  city("San Francisco", "United States", "US", 37.7749, -122.4194, "America/Los_Angeles", ["SF"]),
  city("São Paulo", "Brazil", "BR", -23.5475, -46.6361, "America/Sao_Paulo", ["Sao Paulo"]),
];

function city(
  name: string,
  country: string,
  countryCode: string,
  latitude: number,
  longitude: number,
  timezone: string,
  aliases: string[],
): KnownCity {
  return { name, country, countryCode, latitude, longitude, timezone, aliases };
}

/** Case, accents and surrounding space do not matter when matching names. */
export const normalizeName = (value: string): string =>
  value.normalize("NFKD").replace(/\p{M}/gu, "").trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The known city a name means: "Paris", "paris", "北京", or qualified by country
 * ("Paris, France", "Paris, FR"); a qualifier that does not fit means no match.
 */
export function findKnownCity(query: string): KnownCity | undefined {
  const [name = "", qualifier] = query.split(",", 2).map(normalizeName);
  return KNOWN_CITIES.find(
    (c) =>
      [c.name, ...c.aliases].some((n) => normalizeName(n) === name) &&
      (qualifier === undefined ||
        qualifier === "" ||
        [c.country, c.countryCode ?? ""].some((q) => normalizeName(q) === qualifier)),
  );
}

/** Known names (and aliases) that start with what was typed, primary names first. */
export function knownNamesStartingWith(prefix: string): string[] {
  const typed = normalizeName(prefix);
  const primary = KNOWN_CITIES.map((c) => c.name).filter((n) => normalizeName(n).startsWith(typed));
  const aliases = KNOWN_CITIES.flatMap((c) => c.aliases).filter((n) => normalizeName(n).startsWith(typed));
  return [...new Set([...primary, ...aliases])];
}
