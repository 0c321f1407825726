// docs/composition.md: one server made of two, each under its own prefix.
import { createServer } from "mcpkit/server";
import { z } from "zod";

export function createWeather() {
  const weather = createServer({ name: "weather", version: "1.0.0" });
  weather.tool("forecast", { input: z.object({ city: z.string() }) }, ({ city }) => `Sunny in ${city}`);
  weather.resource("weather://stations", { mimeType: "text/plain" }, () => "Oslo, Paris");
  return weather;
}

export function createNotes() {
  const notes = createServer({ name: "notes", version: "1.0.0" });
  notes.tool("add", { input: z.object({ text: z.string() }) }, ({ text }) => `Noted: ${text}`);
  notes.resourceTemplate("notes://{id}", { name: "note" }, (_uri, { id }) => `Note ${id}`);
  return notes;
}

export function createHub() {
  const hub = createServer({ name: "hub", version: "1.0.0" });
  hub.mount("weather", createWeather()); // weather_forecast, weather://weather/stations
  hub.mount("notes", createNotes()); // notes_add, notes://notes/{id}
  return hub;
}
