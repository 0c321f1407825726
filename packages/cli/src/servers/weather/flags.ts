import { Option } from "commander";
import { durationMs } from "../../commands/duration.js";
import { UsageError } from "../../commands/usage-error.js";
import type { ServerFlags } from "../served.js";
import { UNITS, type Units } from "./units.js";

/** `mcpkit serve weather`'s own options, and the server they make. */
export const flags: ServerFlags = {
  description: "current weather and forecasts by city (offline sample data, or Open-Meteo)",
  // Its only state is each node's cache of the provider's answers: nodes may differ by a cache TTL.
  cluster: true,
  options: () => [
    new Option("--provider <name>", "offline (built-in sample data, the default) or open-meteo").choices([
      "offline",
      "open-meteo",
    ]),
    new Option("--units <units>", "metric (the default) or imperial").choices(UNITS),
    new Option(
      "--cache-ttl <duration>",
      "how long a provider's answer is reused: seconds, or 90s, 10m (default 600; 0 turns it off)",
    ),
    new Option(
      "--provider-timeout <duration>",
      "how long one request to the provider may take: ms, or 10s (default 10000)",
    ),
    new Option("--forecast-url <url>", "Open-Meteo's forecast endpoint (for a self-hosted Open-Meteo)"),
    new Option("--geocoding-url <url>", "Open-Meteo's geocoding endpoint"),
  ],
  async create(values, { shared, cluster }) {
    const cacheTtlMs =
      values.cacheTtl === undefined ? undefined : durationMs(String(values.cacheTtl), "--cache-ttl", { min: 0 });
    const timeout =
      values.providerTimeout === undefined
        ? undefined
        : durationMs(String(values.providerTimeout), "--provider-timeout", { bare: "ms" });
    for (const [key, flag] of [
      ["forecastUrl", "--forecast-url"],
      ["geocodingUrl", "--geocoding-url"],
    ] as const) {
      const value = values[key];
      if (value !== undefined && !/^https?:\/\//.test(String(value)))
        throw new UsageError(`${flag} must be an http(s) URL, not "${value}"`);
    }
    if ((values.forecastUrl !== undefined || values.geocodingUrl !== undefined) && values.provider !== "open-meteo")
      throw new UsageError("--forecast-url and --geocoding-url need --provider open-meteo");
    const { createWeatherServer } = await import("./index.js");
    return createWeatherServer({
      ...(values.provider !== undefined && { provider: values.provider as "offline" | "open-meteo" }),
      ...(values.units !== undefined && { units: values.units as Units }),
      ...(cacheTtlMs !== undefined && { cacheTtlMs }),
      ...(timeout !== undefined && { timeoutMs: timeout }),
      ...(values.forecastUrl !== undefined && { forecastUrl: String(values.forecastUrl) }),
      ...(values.geocodingUrl !== undefined && { geocodingUrl: String(values.geocodingUrl) }),
      ...(cluster && { cluster: shared }),
    });
  },
};
