import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { weatherServer } from "./index.js";
import { offlineProvider } from "./offline.js";
import type { WeatherProvider } from "./provider.js";

// The factory, in this process: its options reach the server, and `source` replaces the
// provider. test/weather tests the tools, the providers and the command.

describe("weatherServer", () => {
  it("serves the offline sample data by default, in metric, and says so in its summary", async () => {
    const weather = weatherServer();
    expect(weather.summary).toBe("provider: offline sample data (not a real observation)\nunits: metric\ncache: 600 s");
    const { client, close } = await connectInMemory(weather.server);
    try {
      const result = await client.callTool("get_current_weather", { city: "Paris" });
      expect(JSON.stringify(result.content)).toMatch(/°C/);
    } finally {
      await close();
      await weather.close();
    }
  });

  it("takes its options typed: units, and a cache of 0 turns it off", () => {
    expect(weatherServer({ units: "imperial", cacheTtlMs: 0 }).summary).toBe(
      "provider: offline sample data (not a real observation)\nunits: imperial\ncache: off",
    );
  });

  it("asks your own source instead of the provider", async () => {
    const asked: string[] = [];
    const sample = offlineProvider();
    const source: WeatherProvider = {
      ...sample,
      source: "my station",
      current: (city, signal) => {
        asked.push(city);
        return sample.current(city, signal);
      },
    };
    const weather = weatherServer({ source });
    const { client, close } = await connectInMemory(weather.server);
    try {
      await client.callTool("get_current_weather", { city: "Tokyo" });
      expect(asked).toEqual(["Tokyo"]);
      expect(weather.summary).toContain("provider: my station");
    } finally {
      await close();
    }
  });
});
