// docs/apps.md: a tool whose results an interactive view renders (MCP Apps).
import { appTool, appView, createServer, forAppHosts } from "mcpkit/server";
import { z } from "zod";

const DASHBOARD = `<!DOCTYPE html>
<html><body><h1 id="city"></h1><p id="sky"></p>
<script type="module">
  // The host sends the tool's result as ui/notifications/tool-result (JSON-RPC over postMessage).
  addEventListener("message", ({ data }) => {
    if (data?.method !== "ui/notifications/tool-result") return;
    const { city, sky } = data.params.structuredContent;
    document.getElementById("city").textContent = city;
    document.getElementById("sky").textContent = sky;
  });
</script></body></html>`;

export function createWeatherApp() {
  const server = createServer({ name: "weather-app", version: "1.0.0" });
  appView(
    server,
    "ui://weather/dashboard",
    { name: "dashboard", ui: { csp: { connectDomains: ["https://api.open-meteo.com"] }, prefersBorder: true } },
    () => DASHBOARD,
  );
  appTool(
    server,
    "forecast",
    {
      description: "Today's weather, on a dashboard",
      input: z.object({ city: z.string() }),
      output: z.object({ city: z.string(), sky: z.string() }),
      ui: { resourceUri: "ui://weather/dashboard" },
    },
    // content for the model and text-only hosts; structuredContent for the view.
    ({ city }) => ({
      content: [{ type: "text", text: `Sunny in ${city}` }],
      structuredContent: { city, sky: "sunny" },
    }),
  );
  // Only hosts that render views see this one; it exists for the dashboard's refresh button.
  appTool(
    server,
    "refresh",
    { ui: { resourceUri: "ui://weather/dashboard", visibility: ["app"] }, visible: forAppHosts },
    () => "refreshed",
  );
  return server;
}
