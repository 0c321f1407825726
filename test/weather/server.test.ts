import { offlineProvider, ProviderError, type WeatherProvider, weatherServer } from "@mcpkit/servers/weather";
import { connectInMemory } from "mcpkit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { resourceText, textOf } from "../serve/results.js";

// The weather server's definition, in memory, in both protocol eras: the seed's resource,
// tools and prompt, units, unknown cities, provider failures, completion, and caching.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Era = "2025-11-25" | "2026-07-28";

async function connect(era: Era, options = {}, provider?: WeatherProvider) {
  const { server } = weatherServer({ ...options, ...(provider && { source: provider }) });
  const connected = await connectInMemory(server, { protocolVersion: era });
  closers.push(connected.close);
  return connected.client;
}

/** A provider that counts its calls and can be told to fail. */
function countingProvider() {
  const base = offlineProvider();
  const state = { calls: 0, failing: false };
  const provider: WeatherProvider = {
    ...base,
    async current(city) {
      state.calls++;
      if (state.failing) throw new ProviderError("The weather service is down; try again later.");
      return base.current(city);
    },
    async forecast(city, days) {
      state.calls++;
      if (state.failing) throw new ProviderError("The weather service is down; try again later.");
      return base.forecast(city, days);
    },
  };
  return { provider, state };
}

describe.each(["2025-11-25", "2026-07-28"] as const)("the weather server, protocol %s", (era) => {
  it("offers the seed's resource, two tools and prompt", async () => {
    const client = await connect(era);
    expect((await client.resources()).map((r) => r.uri)).toEqual(["weather://cities"]);
    const tools = await client.tools();
    expect(tools.map((t) => t.name)).toEqual(["get_current_weather", "get_forecast"]);
    expect(tools[0]?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tools[1]?.inputSchema).toMatchObject({ properties: { days: { minimum: 1, maximum: 7 } } });
    expect((await client.prompts()).map((p) => p.name)).toEqual(["analyze_weather"]);
    const cities = JSON.parse(resourceText(await client.readResource("weather://cities")));
    expect(cities.slice(0, 5).map((c: { aliases: string[] }) => c.aliases[0])).toEqual([
      "北京",
      "上海",
      "廣州",
      "深圳",
      "杭州",
    ]);
  });

  it("answers the current weather as text and as structured content, in either units", async () => {
    const client = await connect(era);
    const metric = await client.callTool("get_current_weather", { city: "北京" });
    expect(textOf(metric)).toContain("Beijing, China: current weather\nTemperature: 22°C");
    expect(textOf(metric)).toContain("Source: offline sample data (not a real observation)");
    expect(metric.structuredContent).toMatchObject({
      city: "Beijing",
      temperature: 22,
      humidity: 45,
      conditions: "Clear sky",
    });
    const imperial = await client.callTool("get_current_weather", { city: "Beijing", units: "imperial" });
    expect(imperial.structuredContent).toMatchObject({ units: "imperial", temperature: 71.6, windSpeed: 6.8 });
    expect(textOf(imperial)).toContain("71.6°F");
  });

  it("uses the server's default units when a call names none", async () => {
    const client = await connect(era, { units: "imperial" });
    const result = await client.callTool("get_forecast", { city: "上海", days: 1 });
    expect(textOf(result)).toMatch(/Day 1 \(\d{4}-\d\d-\d\d\): Clear sky, 68–77°F/);
  });

  it("reports an unknown city, a bad day count and a failing provider as tool errors", async () => {
    const { provider, state } = countingProvider();
    const client = await connect(era, {}, provider);
    const unknown = await client.callTool("get_current_weather", { city: "Atlantis" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^Unknown city "Atlantis"\. The offline sample data covers Beijing/);
    const tooMany = await client.callTool("get_forecast", { city: "Paris", days: 8 }).catch((e: Error) => e);
    // 2025-11-25 reports invalid arguments as a tool error; 2026-07-28 too (server/tools §Error Handling).
    expect(tooMany instanceof Error ? tooMany.message : textOf(tooMany)).toMatch(/days/);
    state.failing = true;
    const down = await client.callTool("get_current_weather", { city: "Paris" });
    expect(down).toMatchObject({ isError: true });
    expect(textOf(down)).toBe("The weather service is down; try again later.");
  });

  it("reuses a provider's answer for the cache's lifetime, and not with the cache off", async () => {
    const cached = countingProvider();
    const client = await connect(era, {}, cached.provider);
    await client.callTool("get_current_weather", { city: "Paris" });
    await client.callTool("get_current_weather", { city: "paris" });
    await client.readResource("weather://current/Paris");
    expect(cached.state.calls).toBe(1);
    const uncached = countingProvider();
    const fresh = await connect(era, { cacheTtlMs: 0 }, uncached.provider);
    await fresh.callTool("get_current_weather", { city: "Paris" });
    await fresh.callTool("get_current_weather", { city: "Paris" });
    expect(uncached.state.calls).toBe(2);
  });

  it("reads weather as resources, errors as the protocol's", async () => {
    const { provider, state } = countingProvider();
    const client = await connect(era, {}, provider);
    const templates = (await client.resourceTemplates()).map((t) => t.uriTemplate);
    expect(templates).toEqual(["weather://current/{city}{?units}", "weather://forecast/{city}{?days,units}"]);
    const read = await client.readResource("weather://forecast/New%20York?days=2&units=imperial");
    const forecast = JSON.parse(resourceText(read));
    expect(forecast).toMatchObject({ city: "New York", units: "imperial" });
    expect(forecast.days).toHaveLength(2);
    await expect(client.readResource("weather://current/Atlantis")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown city "Atlantis"'),
    });
    await expect(client.readResource("weather://forecast/Paris?days=99")).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource("weather://current/Paris?units=kelvin")).rejects.toMatchObject({ code: -32602 });
    state.failing = true;
    await expect(client.readResource("weather://current/Tokyo")).rejects.toMatchObject({
      code: -32603,
      message: "The weather service is down; try again later.",
    });
  });

  it("completes city names for the prompt and the templates", async () => {
    const client = await connect(era);
    const prompt = await client.complete({
      ref: { type: "ref/prompt", name: "analyze_weather" },
      argument: { name: "city", value: "S" },
    });
    expect(prompt.completion.values).toEqual([
      "Shanghai",
      "Shenzhen",
      "Seoul",
      "Singapore",
      "Sydney",
      "San Francisco",
      "São Paulo",
      "SF",
      "Sao Paulo",
    ]);
    const template = await client.complete({
      ref: { type: "ref/resource", uri: "weather://current/{city}{?units}" },
      argument: { name: "city", value: "杭" },
    });
    expect(template.completion.values).toEqual(["杭州"]);
  });

  it("gets analyze_weather with the city's weather embedded", async () => {
    const client = await connect(era);
    const prompt = await client.getPrompt("analyze_weather", { city: "廣州" });
    expect(prompt.description).toBe("Weather analysis for Guangzhou, China");
    expect(prompt.messages[0]?.content).toMatchObject({
      type: "text",
      text: expect.stringContaining("Whether to take an umbrella"),
    });
    const embedded = prompt.messages[1]?.content as { type: string; resource: { text: string } };
    expect(embedded.type).toBe("resource");
    expect(JSON.parse(embedded.resource.text).forecast.days).toHaveLength(3);
    await expect(client.getPrompt("analyze_weather", { city: "Atlantis" })).rejects.toMatchObject({ code: -32602 });
  });

  it("still gives analyze_weather when the provider fails, saying so", async () => {
    const { provider, state } = countingProvider();
    state.failing = true;
    const client = await connect(era, {}, provider);
    const prompt = await client.getPrompt("analyze_weather", { city: "Paris" });
    expect(prompt.messages[1]?.content).toMatchObject({
      type: "text",
      text: "(The weather could not be fetched: The weather service is down; try again later. Use the get_current_weather and get_forecast tools.)",
    });
  });
});

describe("2026-07-28 caching hints", () => {
  it("tell clients to keep weather reads as long as the server reuses the provider's answer", async () => {
    const client = await connect("2026-07-28", { cacheTtlMs: 120_000 });
    const read = (await client.readResource("weather://current/Paris")) as unknown as {
      ttlMs: number;
      cacheScope: string;
    };
    expect(read).toMatchObject({ ttlMs: 120_000, cacheScope: "public" });
    const cities = (await client.readResource("weather://cities")) as unknown as { ttlMs: number };
    expect(cities.ttlMs).toBe(86_400_000);
    const list = (await client.listTools()) as unknown as { ttlMs: number; cacheScope: string };
    expect(list).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
  });
});
