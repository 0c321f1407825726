import { offlineProvider, openMeteoProvider, ProviderError, UnknownCityError } from "@mcpkit/servers/weather";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedProvider } from "../../packages/servers/src/weather/cached-provider.js";
import { type FakeOpenMeteo, startFakeOpenMeteo } from "./fake-open-meteo.js";

// The two providers behind the weather server: the offline one tested directly, the
// Open-Meteo one against a loopback fake of Open-Meteo's public APIs, errors included.

describe("the offline provider", () => {
  // 2026-03-01 23:30 UTC is already 2 March in Beijing and still 1 March in New York.
  const provider = offlineProvider({ now: () => Date.UTC(2026, 2, 1, 23, 30) });

  it("knows the seed's cities by their Chinese names, English names, and with a country", async () => {
    for (const name of ["北京", "Beijing", "beijing", " PEKING ", "Beijing, China", "Beijing, CN"]) {
      expect((await provider.current(name)).place.name).toBe("Beijing");
    }
    expect((await provider.current("廣州")).place.name).toBe("Guangzhou");
    expect((await provider.current("广州")).place.name).toBe("Guangzhou");
    expect((await provider.current("Sao Paulo")).place.name).toBe("São Paulo");
  });

  it("answers the seed's figures: Beijing now, Shanghai's next three days", async () => {
    const now = await provider.current("北京");
    expect(now).toMatchObject({ temperatureC: 22, humidity: 45, weatherCode: 0 });
    const days = (await provider.forecast("上海", 3)).days;
    expect(days.map((d) => [d.weatherCode, d.minC, d.maxC])).toEqual([
      [0, 20, 25],
      [2, 18, 23],
      [61, 16, 20],
    ]);
  });

  it("dates each day in the city's own time zone", async () => {
    expect((await provider.current("Beijing")).time).toBe("2026-03-02T07:00");
    expect((await provider.forecast("Beijing", 2)).days.map((d) => d.date)).toEqual(["2026-03-02", "2026-03-03"]);
    expect((await provider.forecast("New York", 1)).days[0]?.date).toBe("2026-03-01");
  });

  it("gives at most its seven days", async () => {
    expect(provider.maxForecastDays).toBe(7);
    expect((await provider.forecast("Paris", 30)).days).toHaveLength(7);
  });

  it("refuses an unknown city, or a known one with the wrong country, naming the cities it has", async () => {
    await expect(provider.current("Atlantis")).rejects.toThrow(UnknownCityError);
    await expect(provider.current("Atlantis")).rejects.toThrow(/Unknown city "Atlantis".*Beijing, Shanghai/);
    await expect(provider.current("Paris, Texas")).rejects.toThrow(/--provider open-meteo/);
  });

  it("suggests names from a prefix, in any script", async () => {
    expect(await provider.suggest("be")).toEqual(["Beijing", "Berlin"]);
    expect(await provider.suggest("北")).toEqual(["北京"]);
    expect(await provider.suggest("zz")).toEqual([]);
  });
});

describe("the Open-Meteo provider, against a loopback Open-Meteo", () => {
  let api: FakeOpenMeteo;
  const provider = (timeoutMs = 2000) =>
    openMeteoProvider({ forecastUrl: api.forecastUrl, geocodingUrl: api.geocodingUrl, timeoutMs });

  beforeEach(async () => {
    api = await startFakeOpenMeteo();
  });
  afterEach(() => api.close());

  it("places the city through geocoding, then reads the current conditions there", async () => {
    const now = await provider().current("Berlin");
    expect(now.place).toMatchObject({
      name: "Berlin",
      country: "Germany",
      countryCode: "DE",
      timezone: "Europe/Berlin",
    });
    expect(now).toMatchObject({
      temperatureC: 14.3,
      apparentTemperatureC: 12.9,
      humidity: 71,
      weatherCode: 61,
      windDirection: 245,
    });
    const [geo, weather] = api.requests;
    expect(geo?.pathname).toBe("/v1/search");
    expect(geo?.searchParams.get("name")).toBe("Berlin");
    expect(weather?.searchParams.get("latitude")).toBe("52.52437");
    expect(weather?.searchParams.get("timezone")).toBe("auto");
  });

  it("reads the daily forecast, as many days as asked, up to Open-Meteo's 16", async () => {
    const forecast = await provider().forecast("São Paulo", 5);
    expect(forecast.days).toHaveLength(5);
    expect(forecast.days[1]).toMatchObject({
      weatherCode: 61,
      minC: 8.9,
      maxC: 17.2,
      precipitationMm: 4.7,
      precipitationChance: 20,
    });
    // A day without a probability (null in Open-Meteo's answer) reads as 0, not as an error.
    expect(forecast.days[3]?.precipitationChance).toBe(0);
    await provider().forecast("Berlin", 40);
    expect(api.requests.at(-1)?.searchParams.get("forecast_days")).toBe("16");
  });

  it("narrows by country or region after a comma, as Open-Meteo's geocoding does", async () => {
    expect((await provider().current("Paris, Texas")).place).toMatchObject({
      country: "United States",
      region: "Texas",
    });
    expect((await provider().current("Paris")).place.country).toBe("France");
  });

  it("reports a place geocoding does not know as an unknown city", async () => {
    const error = await provider()
      .current("Atlantis")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownCityError);
    expect((error as Error).message).toMatch(/Unknown city "Atlantis".*add the country or region/);
  });

  it("remembers places, so current and forecast of a city geocode once", async () => {
    const p = provider();
    await p.current("Berlin");
    await p.forecast("berlin", 2);
    expect(api.requests.filter((u) => u.pathname === "/v1/search")).toHaveLength(1);
  });

  it("turns Open-Meteo's error body into a ProviderError with its reason", async () => {
    api.failNext("/v1/forecast", {
      status: 400,
      body: JSON.stringify({ error: true, reason: "Latitude must be in range of -90 to 90°." }),
    });
    await expect(provider().current("Berlin")).rejects.toThrow(
      new ProviderError("Open-Meteo refused the request (HTTP 400): Latitude must be in range of -90 to 90°."),
    );
  });

  it("says to try later on 429 and on server errors", async () => {
    api.failNext("/v1/search", {
      status: 429,
      body: JSON.stringify({
        error: true,
        reason: "Minutely API request limit exceeded. Please try again in one minute.",
      }),
    });
    await expect(provider().current("Berlin")).rejects.toThrow(
      /too many requests \(HTTP 429\): Minutely API request limit exceeded.*Try again later/,
    );
    api.failNext("/v1/forecast", {
      status: 502,
      body: "<html>Bad Gateway</html>",
      headers: { "content-type": "text/html" },
    });
    await expect(provider().current("Berlin")).rejects.toThrow(
      /Open-Meteo failed \(HTTP 502\): Bad Gateway\. Try again later/,
    );
  });

  it("gives up after its timeout, saying so", async () => {
    api.failNext("/v1/forecast", { hang: true });
    await expect(provider(300).current("Berlin")).rejects.toThrow(/Open-Meteo did not answer within 0.3 s/);
  });

  it("reports a dropped connection and an unreachable service", async () => {
    api.failNext("/v1/search", { drop: true });
    await expect(provider().current("Berlin")).rejects.toThrow(
      /Could not reach Open-Meteo at http:\/\/127\.0\.0\.1:\d+/,
    );
    const closed = await startFakeOpenMeteo();
    await closed.close();
    const gone = openMeteoProvider({ geocodingUrl: closed.geocodingUrl, timeoutMs: 2000 });
    await expect(gone.current("Berlin")).rejects.toThrow(
      /Could not reach Open-Meteo at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    );
  });

  it("refuses an answer that is not JSON, too big, or missing a field", async () => {
    api.failNext("/v1/search", { status: 200, body: "<html>captive portal</html>" });
    await expect(provider().current("Berlin")).rejects.toThrow(/answered with something that is not JSON/);
    api.failNext("/v1/search", { bytes: 2 * 1024 * 1024 });
    await expect(provider().current("Berlin")).rejects.toThrow(/more than 1048576 bytes; refused/);
    api.failNext("/v1/forecast", { status: 200, body: JSON.stringify({ current: { time: "2026-01-01T00:00" } }) });
    await expect(provider().current("Berlin")).rejects.toThrow(/answered without current.temperature_2m/);
  });

  it("completes names from the built-in list first, then from geocoding", async () => {
    expect(await provider().suggest("Par")).toEqual(["Paris", "Paris, Île-de-France", "Paris, Texas"]);
    // Two characters are too few for geocoding: only the built-in names, no request.
    expect(await provider().suggest("Be")).toEqual(["Beijing", "Berlin"]);
    expect(api.requests).toHaveLength(1);
    api.failNext("/v1/search", { status: 500, body: "{}" });
    expect(await provider().suggest("Ber")).toEqual(["Berlin"]);
  });
});

describe("the cache in front of a provider", () => {
  it("answers a repeated question from memory until the TTL passes, and shares one fetch", async () => {
    let fetched = 0;
    let clock = 0;
    const slow = offlineProvider();
    const counting = {
      ...slow,
      current: (city: string) => {
        fetched++;
        return slow.current(city);
      },
    };
    const cached = cachedProvider(counting, { ttlMs: 1000, now: () => clock });
    await Promise.all([cached.current("Paris"), cached.current("paris"), cached.current(" Paris ")]);
    expect(fetched).toBe(1);
    clock = 999;
    await cached.current("Paris");
    expect(fetched).toBe(1);
    clock = 1000;
    await cached.current("Paris");
    expect(fetched).toBe(2);
  });

  it("does not remember failures", async () => {
    let calls = 0;
    const flaky = offlineProvider();
    const failingOnce = {
      ...flaky,
      current: async (city: string) => {
        if (calls++ === 0) throw new ProviderError("down");
        return flaky.current(city);
      },
    };
    const cached = cachedProvider(failingOnce, { ttlMs: 60_000 });
    await expect(cached.current("Paris")).rejects.toThrow("down");
    expect((await cached.current("Paris")).place.name).toBe("Paris");
  });

  it("lets one caller give up without failing the others waiting on the same fetch", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const base = offlineProvider();
    const cached = cachedProvider(
      {
        ...base,
        current: async (city) => {
          await gate;
          return base.current(city);
        },
      },
      { ttlMs: 1000 },
    );
    const impatient = new AbortController();
    const first = cached.current("Paris", impatient.signal);
    const second = cached.current("Paris");
    impatient.abort(new Error("gave up"));
    await expect(first).rejects.toThrow("gave up");
    release();
    expect((await second).place.name).toBe("Paris");
  });
});
