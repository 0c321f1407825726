// @ts-check
// The weather server of the seed's walkthrough (a resource of cities, get_current_weather,
// get_forecast, the analyze_weather prompt), over stdio. It is `mcpkit serve weather`;
// this file shows how to serve it, or your own provider, from a script of yours.
//
//   node examples/weather/server.mjs                      # built-in sample data, no network
//   node examples/weather/server.mjs --provider open-meteo # live weather from Open-Meteo
import { weatherServer } from "@mcpkit/servers/weather";
import { stdioServerTransport } from "mcpkit/stdio";

const provider = process.argv.includes("--provider") ? process.argv[process.argv.indexOf("--provider") + 1] : "offline";
if (provider !== "offline" && provider !== "open-meteo") {
  process.stderr.write(`--provider must be offline or open-meteo, not ${provider}\n`);
  process.exit(2);
}

const { server } = weatherServer({ provider });
await server.connect(stdioServerTransport());
