import type { PromptMessage } from "mcpkit";
import type { McpServer } from "mcpkit/server";
import { ProviderError, type WeatherProvider } from "./provider.js";
import { currentReport, forecastReport } from "./report.js";
import { asProtocolError } from "./resources.js";
import type { Units } from "./units.js";

/**
 * The seed's analyze_weather prompt: its three questions, with the city's current weather
 * and 3-day forecast embedded so the model answers from data. When the provider fails the
 * prompt still comes, saying so and pointing at the tools; an unknown city is -32602.
 */
export function registerWeatherPrompt(server: McpServer, provider: WeatherProvider, units: Units): void {
  server.prompt(
    "analyze_weather",
    {
      title: "Analyze the weather",
      description: "Analyzes a city's weather and gives advice for going out",
      args: { city: { description: "The city, such as Guangzhou or 廣州", required: true } },
      complete: { city: (value, { ctx }) => provider.suggest(value, ctx.signal) },
    },
    async ({ city = "" }, ctx) => {
      const ask: PromptMessage = {
        role: "user",
        content: {
          type: "text",
          text: `Please analyze the weather in ${city} and give advice for going out, covering:\n1. Whether the temperature is comfortable\n2. Whether to take an umbrella\n3. What to wear`,
        },
      };
      try {
        const [now, next] = await Promise.all([
          provider.current(city, ctx.signal),
          provider.forecast(city, 3, ctx.signal),
        ]);
        const data = {
          current: currentReport(now, units, provider.source).structured,
          forecast: forecastReport(next, units, provider.source).structured,
        };
        return {
          description: `Weather analysis for ${data.current.place}`,
          messages: [
            ask,
            {
              role: "user",
              content: {
                type: "resource",
                resource: {
                  uri: `weather://forecast/${encodeURIComponent(city)}`,
                  mimeType: "application/json",
                  text: JSON.stringify(data, null, 2),
                },
              },
            },
          ],
        };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw asProtocolError(error);
        const note = `(The weather could not be fetched: ${error.message} Use the get_current_weather and get_forecast tools.)`;
        return {
          description: `Weather analysis for ${city}`,
          messages: [ask, { role: "user", content: { type: "text", text: note } }],
        };
      }
    },
  );
}
