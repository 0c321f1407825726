import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeServed, serveHttp } from "../serve/helpers.js";

// The seed's walkthrough as examples/weather/README.md tells it: start the server, run the
// client, see the resource, the tools and the prompt; then Claude Desktop's configuration.

// Each test starts the real binary (some several times): generous, since a loaded machine starts Node slowly.
vi.setConfig({ testTimeout: 60_000 });

const run = promisify(execFile);
const EXAMPLE = fileURLToPath(new URL("../../examples/weather/", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

afterEach(closeServed);

function expectWalkthrough(stdout: string) {
  expect(stdout).toContain("✅ Connected!");
  expect(stdout).toContain("📁 Resources: 1\n  - Supported cities: weather://cities");
  expect(stdout).toContain("🌍 Cities: 北京, 上海, 廣州, 深圳, 杭州");
  expect(stdout).toMatch(/🔧 Tools: 2\n {2}- get_current_weather: .*\n {2}- get_forecast: /);
  expect(stdout).toContain(
    "Beijing, China: current weather\nTemperature: 22°C (feels like 21°C)\nConditions: Clear sky\nHumidity: 45%",
  );
  expect(stdout).toMatch(
    /Day 1 \(.*\): Clear sky, 20–25°C.*\nDay 2 \(.*\): Partly cloudy, 18–23°C.*\nDay 3 \(.*\): Slight rain, 16–20°C/,
  );
  expect(stdout).toContain("💡 Prompts: 1\n  - analyze_weather:");
  expect(stdout).toContain("📝 The prompt:\nPlease analyze the weather in 廣州");
}

describe("the weather walkthrough", () => {
  it("runs the client against the example server over stdio", async () => {
    const { stdout } = await run(process.execPath, [`${EXAMPLE}client.mjs`], { timeout: 45_000 });
    expectWalkthrough(stdout);
  });

  it("runs the client against mcpkit serve weather over HTTP", async () => {
    const served = await serveHttp("weather", []);
    const { stdout } = await run(process.execPath, [`${EXAMPLE}client.mjs`, served.url.href], { timeout: 45_000 });
    expectWalkthrough(stdout);
  });

  it("gives Claude Desktop a command that serves the weather over stdio", async () => {
    const readme = readFileSync(`${EXAMPLE}README.md`, "utf8");
    const json = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? "{}";
    const { command, args } = JSON.parse(json).mcpServers.weather as { command: string; args: string[] };
    expect(command).toBe("node");
    const client = new Client({ name: "claude-desktop-stand-in", version: "1" });
    await client.connect(
      stdioClientTransport({ command: process.execPath, args: args.map((a) => a.replace("/path/to/mcpkit/", ROOT)) }),
    );
    try {
      expect((await client.tools()).map((t) => t.name)).toEqual(["get_current_weather", "get_forecast"]);
    } finally {
      await client.close();
    }
  });
});
