import type { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client } from "mcpkit/client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  closeServed,
  mcpkitOverHttp,
  mcpkitOverStdio,
  resourceText,
  sdkOverHttp,
  sdkOverStdio,
  serveHttp,
  textOf,
} from "../serve/helpers.js";
import { type FakeOpenMeteo, startFakeOpenMeteo } from "./fake-open-meteo.js";

// `mcpkit serve weather` end to end: the real binary over stdio and Streamable HTTP,
// driven by mcpkit's Client and by the official SDK's, with the offline data and with
// Open-Meteo (a loopback fake of it).

// Each test starts the real binary (some several times): generous, since a loaded machine starts Node slowly.
vi.setConfig({ testTimeout: 60_000 });

let api: FakeOpenMeteo;
beforeAll(async () => {
  api = await startFakeOpenMeteo();
});
afterEach(closeServed);
afterAll(() => api.close());

const live = () => ["--provider", "open-meteo", "--forecast-url", api.forecastUrl, "--geocoding-url", api.geocodingUrl];

/** The seed's walkthrough, through mcpkit's client. */
async function walkthrough(client: Client) {
  expect((await client.resources()).map((r) => r.uri)).toEqual(["weather://cities"]);
  expect(resourceText(await client.readResource("weather://cities"))).toContain('"北京"');
  expect((await client.tools()).map((t) => t.name)).toEqual(["get_current_weather", "get_forecast"]);
  expect(textOf(await client.callTool("get_current_weather", { city: "北京" }))).toContain("Temperature: 22°C");
  expect(textOf(await client.callTool("get_forecast", { city: "上海", days: 3 }))).toMatch(
    /Day 3 .*Slight rain, 16–20°C/,
  );
  const prompt = await client.getPrompt("analyze_weather", { city: "廣州" });
  expect(prompt.messages[0]?.content).toMatchObject({
    text: expect.stringContaining("Please analyze the weather in 廣州"),
  });
}

/** The same, through the official SDK's client. */
async function sdkWalkthrough(client: SdkClient) {
  expect(client.getServerVersion()).toMatchObject({ name: "mcpkit-weather" });
  expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["weather://cities"]);
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === "get_forecast")?.outputSchema).toBeDefined();
  const now = await client.callTool({ name: "get_current_weather", arguments: { city: "北京", units: "imperial" } });
  expect(now.structuredContent).toMatchObject({ temperature: 71.6, units: "imperial" });
  const unknown = await client.callTool({ name: "get_current_weather", arguments: { city: "Atlantis" } });
  expect(unknown.isError).toBe(true);
  const completion = await client.complete({
    ref: { type: "ref/prompt", name: "analyze_weather" },
    argument: { name: "city", value: "Sh" },
  });
  expect(completion.completion.values).toEqual(["Shanghai", "Shenzhen"]);
  const prompt = await client.getPrompt({ name: "analyze_weather", arguments: { city: "Paris" } });
  expect(prompt.messages).toHaveLength(2);
}

describe("mcpkit serve weather over stdio", () => {
  it("walks through the seed's example with mcpkit's client", async () => {
    await walkthrough(await mcpkitOverStdio("weather", []));
  });

  it("serves the official SDK's client", async () => {
    await sdkWalkthrough(await sdkOverStdio("weather", []));
  });

  it("reads live weather from Open-Meteo with --provider open-meteo", async () => {
    const client = await mcpkitOverStdio("weather", [...live(), "--units", "imperial"]);
    const berlin = await client.callTool("get_current_weather", { city: "Berlin" });
    expect(berlin.structuredContent).toMatchObject({
      place: "Berlin, Land Berlin, Germany",
      temperature: 57.7,
      source: "Open-Meteo (open-meteo.com)",
    });
    expect((await client.tools())[0]?.annotations).toMatchObject({ openWorldHint: true });
  });
});

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "mcpkit serve weather over HTTP, protocol %s",
  (protocolVersion) => {
    it("walks through the seed's example with mcpkit's client", async () => {
      const served = await serveHttp("weather", []);
      expect(served.stderr()).toContain("provider: offline sample data");
      const client = await mcpkitOverHttp(served.url, { protocolVersion });
      expect(client.protocolVersion).toBe(protocolVersion);
      await walkthrough(client);
    });

    it("reports Open-Meteo's failures as tool errors and its answers with caching hints", async () => {
      const served = await serveHttp("weather", [...live(), "--cache-ttl", "300"]);
      const client = await mcpkitOverHttp(served.url, { protocolVersion });
      api.failNext("/v1/search", { status: 503, body: JSON.stringify({ error: true, reason: "Service unavailable" }) });
      const failed = await client.callTool("get_current_weather", { city: "Paris" });
      expect(failed).toMatchObject({ isError: true });
      expect(textOf(failed)).toBe("Open-Meteo failed (HTTP 503): Service unavailable. Try again later.");
      const read = await client.readResource("weather://forecast/Paris%2C%20Texas?days=2");
      expect(JSON.parse(resourceText(read))).toMatchObject({ place: "Paris, Texas, United States" });
      if (protocolVersion === "2026-07-28") expect(read).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
    });
  },
);

describe("the official SDK's client over HTTP", () => {
  it("uses mcpkit serve weather", async () => {
    const served = await serveHttp("weather", []);
    await sdkWalkthrough(await sdkOverHttp(served.url));
  });
});

describe("mcpkit serve weather's options", () => {
  it("refuses the Open-Meteo endpoints without --provider open-meteo, and another server's options", async () => {
    await expect(serveHttp("weather", ["--forecast-url", "http://127.0.0.1:1/"])).rejects.toThrow(
      /--forecast-url and --geocoding-url need --provider open-meteo/,
    );
    await expect(serveHttp("weather", ["--root", "."])).rejects.toThrow(/--root applies to the workspace server only/);
    await expect(serveHttp("workspace", ["--units", "imperial"])).rejects.toThrow(
      /--units applies to the weather server only/,
    );
  });
});
