import { Option } from "commander";
import { UsageError } from "../../commands/usage-error.js";
import type { WeatherServer } from "./index.js";
import { UNITS, type Units } from "./units.js";

/** `mcpkit serve weather`'s own options, and the server they make. */
export const weatherFlags = {
  options: [
    new Option("--provider <name>", "weather: offline (built-in sample data, the default) or open-meteo").choices([
      "offline",
      "open-meteo",
    ]),
    new Option("--units <units>", "weather: metric (the default) or imperial").choices(UNITS),
    new Option(
      "--cache-ttl <seconds>",
      "weather: how long a provider's answer is reused (default 600; 0 turns it off)",
    ),
    new Option("--provider-timeout <ms>", "weather: how long one request to the provider may take (default 10000)"),
    new Option("--forecast-url <url>", "weather: Open-Meteo's forecast endpoint (for a self-hosted Open-Meteo)"),
    new Option("--geocoding-url <url>", "weather: Open-Meteo's geocoding endpoint"),
  ],
  async create(flags: Record<string, unknown>): Promise<WeatherServer> {
    const cacheTtl = flags.cacheTtl === undefined ? undefined : whole(String(flags.cacheTtl), "--cache-ttl", 0);
    const timeout =
      flags.providerTimeout === undefined ? undefined : whole(String(flags.providerTimeout), "--provider-timeout", 1);
    for (const [key, flag] of [
      ["forecastUrl", "--forecast-url"],
      ["geocodingUrl", "--geocoding-url"],
    ] as const) {
      const value = flags[key];
      if (value !== undefined && !/^https?:\/\//.test(String(value)))
        throw new UsageError(`${flag} must be an http(s) URL, not "${value}"`);
    }
    if ((flags.forecastUrl !== undefined || flags.geocodingUrl !== undefined) && flags.provider !== "open-meteo")
      throw new UsageError("--forecast-url and --geocoding-url need --provider open-meteo");
    const { createWeatherServer } = await import("./index.js");
    return createWeatherServer({
      ...(flags.provider !== undefined && { provider: flags.provider as "offline" | "open-meteo" }),
      ...(flags.units !== undefined && { units: flags.units as Units }),
      ...(cacheTtl !== undefined && { cacheTtlMs: cacheTtl * 1000 }),
      ...(timeout !== undefined && { timeoutMs: timeout }),
      ...(flags.forecastUrl !== undefined && { forecastUrl: String(flags.forecastUrl) }),
      ...(flags.geocodingUrl !== undefined && { geocodingUrl: String(flags.geocodingUrl) }),
    });
  },
};

function whole(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${flag} must be a whole number of at least ${min}, not "${value}"`);
  return n;
}
