import { UsageError } from "@mcpkit/servers/options";
import { weatherOptions } from "@mcpkit/servers/weather/options";
import { defineFlags } from "./served.js";

/** `mcpkit serve weather`: its options are @mcpkit/servers' weatherOptions. */
export const flags = defineFlags({
  description: "current weather and forecasts by city (offline sample data, or Open-Meteo)",
  // Its only state is each node's cache of the provider's answers: nodes may differ by a cache TTL.
  cluster: true,
  options: weatherOptions,
  check(values) {
    if ((values.forecastUrl !== undefined || values.geocodingUrl !== undefined) && values.provider !== "open-meteo")
      throw new UsageError("--forecast-url and --geocoding-url need --provider open-meteo");
  },
  async create(values, { shared, cluster }) {
    const { weatherServer } = await import("@mcpkit/servers/weather");
    return weatherServer({ ...values, ...(cluster && { cluster: shared }) });
  },
});
