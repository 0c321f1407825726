/**
 * `@mcpkit/cli/weather`, deprecated: the weather server is `@mcpkit/servers/weather` now.
 * This entry re-exports it, and keeps the old factory's name and signature.
 */
import { type WeatherOptions, type WeatherProvider, type WeatherServer, weatherServer } from "@mcpkit/servers/weather";

export * from "@mcpkit/servers/weather";

/** @deprecated Use `weatherServer({ ...options, source: provider })` from `@mcpkit/servers/weather`. */
export function createWeatherServer(options: WeatherOptions = {}, provider?: WeatherProvider): WeatherServer {
  return weatherServer({ ...options, ...(provider && { source: provider }) });
}
