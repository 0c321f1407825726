import { describe, expect, it } from "vitest";
import { clientConfig, envName } from "./client-config.js";

// The server as another client's configuration: everything but the secrets, each of which
// is a placeholder the client fills in (or the person does).

const http = {
  kind: "http" as const,
  url: "https://api.example.com/mcp",
  sse: false,
  headers: ["Authorization", "X-Api-Key"],
};
const stdio = {
  kind: "stdio" as const,
  command: "node",
  args: ["server.js", "--units", "metric"],
  env: ["WEATHER_API_KEY"],
};
const mcpkit = ["/usr/bin/node", "/opt/mcpkit/bin/mcpkit.js"] as const;
/** A placeholder as a client expands it: `${NAME}` (written so, not as a template). */
const $ = (name: string) => `\${${name}}`;
const parse = (text: string) => JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>;

describe("copy as client config", () => {
  it("writes .mcp.json's entry with the headers as variables the client reads from its environment", () => {
    const config = clientConfig("mcp.json", "weather api", http, mcpkit);
    expect(parse(config.text).mcpServers?.["weather-api"]).toEqual({
      type: "http",
      url: "https://api.example.com/mcp",
      headers: { Authorization: $("AUTHORIZATION"), "X-Api-Key": $("X_API_KEY") },
    });
    expect(config.placeholders.map((p) => p.for)).toEqual([
      "the Authorization header: set AUTHORIZATION in the environment the client starts in",
      "the X-Api-Key header: set X_API_KEY in the environment the client starts in",
    ]);
  });

  it("writes VS Code's entry with a password prompt for each secret", () => {
    const config = parse(clientConfig("vscode", "weather", stdio, mcpkit).text);
    expect(config.servers?.weather).toEqual({
      type: "stdio",
      command: "node",
      args: ["server.js", "--units", "metric"],
      env: { WEATHER_API_KEY: $("input:weather-api-key") },
    });
    expect(config.inputs).toEqual([
      { type: "promptString", id: "weather-api-key", description: "weather-api-key for weather", password: true },
    ]);
  });

  it("reaches a URL from Claude Desktop through mcpkit serve proxy, with text to replace for each secret", () => {
    const config = clientConfig("claude-desktop", "weather", http, mcpkit);
    expect(parse(config.text).mcpServers?.weather).toEqual({
      command: "/usr/bin/node",
      args: [
        "/opt/mcpkit/bin/mcpkit.js",
        "serve",
        "proxy",
        "https://api.example.com/mcp",
        "--header",
        "Authorization: <your Authorization>",
        "--header",
        "X-Api-Key: <your X-Api-Key>",
      ],
    });
  });

  it("says sse for a server that speaks HTTP+SSE, and leaves out what is not there", () => {
    const config = parse(clientConfig("mcp.json", undefined, { ...http, sse: true, headers: [] }, mcpkit).text);
    expect(config.mcpServers?.server).toEqual({ type: "sse", url: "https://api.example.com/mcp" });
  });

  it("names variables as an environment can hold them", () => {
    expect(envName("X-Api-Key")).toBe("X_API_KEY");
    expect(envName("authorization")).toBe("AUTHORIZATION");
    expect(envName("-x.y-")).toBe("X_Y");
  });
});
