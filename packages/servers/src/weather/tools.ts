import { type McpServer, text } from "mcpkit/server";
import { z } from "zod";
import type { WeatherProvider } from "./provider.js";
import { currentReport, forecastReport } from "./report.js";
import { UNITS, type Units } from "./units.js";

export const cityArgument = z
  .string()
  .min(1)
  .max(100)
  .describe('A city: "Beijing", "北京", or with its country or region, "Paris, France" (see weather://cities)');

const facts = {
  city: z.string(),
  place: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  units: z.enum(UNITS),
  source: z.string().describe("Where the data comes from; the offline provider's is sample data"),
  fetchedAt: z.string().describe("When the provider answered (answers are reused for a while)"),
};

const currentOutput = z.object({
  ...facts,
  time: z.string().describe("Local time of the observation"),
  temperature: z.number(),
  apparentTemperature: z.number(),
  humidity: z.number().describe("Percent"),
  windSpeed: z.number(),
  windDirection: z.number().describe("Degrees the wind comes from"),
  precipitation: z.number(),
  weatherCode: z.number().describe("WMO weather interpretation code"),
  conditions: z.string(),
});

const forecastOutput = z.object({
  ...facts,
  days: z.array(
    z.object({
      date: z.string(),
      weatherCode: z.number(),
      conditions: z.string(),
      min: z.number(),
      max: z.number(),
      precipitation: z.number(),
      precipitationChance: z.number().describe("Percent"),
      windMax: z.number(),
    }),
  ),
});

/** get_current_weather and get_forecast, the seed's two tools. A provider's failure is an isError result. */
export function registerWeatherTools(server: McpServer, provider: WeatherProvider, defaultUnits: Units): void {
  const units = z.enum(UNITS).describe(`metric (°C, km/h, mm) or imperial (°F, mph, in); default ${defaultUnits}`);
  const annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: provider.live };

  server.tool(
    "get_current_weather",
    {
      title: "Current weather",
      description: `The current weather in a city: temperature, conditions, humidity, wind. Source: ${provider.source}.`,
      input: z.object({ city: cityArgument, units: units.optional() }),
      output: currentOutput,
      annotations,
    },
    async (args, ctx) => {
      const report = currentReport(
        await provider.current(args.city, ctx.signal),
        args.units ?? defaultUnits,
        provider.source,
      );
      return { content: [text(report.text)], structuredContent: report.structured };
    },
  );

  server.tool(
    "get_forecast",
    {
      title: "Weather forecast",
      description: `The daily forecast for a city, 1–${provider.maxForecastDays} days from today (default 3). Source: ${provider.source}.`,
      input: z.object({
        city: cityArgument,
        days: z.number().int().min(1).max(provider.maxForecastDays).describe("How many days (default 3)").optional(),
        units: units.optional(),
      }),
      output: forecastOutput,
      annotations,
    },
    async (args, ctx) => {
      const forecast = await provider.forecast(args.city, args.days ?? 3, ctx.signal);
      const report = forecastReport(forecast, args.units ?? defaultUnits, provider.source);
      return { content: [text(report.text)], structuredContent: report.structured };
    },
  );
}
