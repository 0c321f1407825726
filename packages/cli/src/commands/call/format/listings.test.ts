import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { infoLines, promptLines, resourceListLines, toolLines } from "./listings.js";

// Listings for people: a name line, the description indented under it.

const c = pc.createColors(false);

describe("listings", () => {
  it("show a tool with its signature, its hints and its title before its description", () => {
    const tool = {
      name: "get_forecast",
      title: "Forecast",
      description: "The forecast of a city.\nUp to 16 days.",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
    expect(toolLines([tool], c)).toEqual([
      "get_forecast(city: string) [read-only, closed-world]",
      "  Forecast: The forecast of a city.",
      "  Up to 16 days.",
    ]);
    expect(toolLines([{ name: "ping", inputSchema: { type: "object" } }], c)).toEqual(["ping()"]);
  });

  it("show a resource or template by its URI, then its name and type", () => {
    expect(
      resourceListLines(
        [
          { uri: "weather://cities", name: "cities", mimeType: "application/json", description: "The cities" },
          { uriTemplate: "file:///{path}", name: "file" },
        ],
        c,
      ),
    ).toEqual(["weather://cities  cities, application/json", "  The cities", "file:///{path}  file"]);
  });

  it("show a prompt with its arguments, ? for an optional one", () => {
    const prompt = { name: "analyze", arguments: [{ name: "city", required: true }, { name: "focus" }] };
    expect(promptLines([prompt], c)).toEqual(["analyze(city, focus?)"]);
  });

  it("describe a server: name, revision and era, capabilities, instructions", () => {
    const lines = infoLines(
      {
        serverInfo: { name: "mcpkit-weather", version: "0.1.0", title: "mcpkit weather" },
        protocolVersion: "2025-11-25",
        era: "legacy",
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: "Weather by city.",
      },
      c,
    );
    expect(lines).toEqual([
      "mcpkit-weather 0.1.0 (mcpkit weather)",
      "protocol 2025-11-25 (initialize handshake)",
      "capabilities: tools (listChanged), logging",
      "",
      "Weather by city.",
    ]);
  });
});
