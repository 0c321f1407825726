// @ts-check
// The client of the seed's walkthrough: starts the weather server, then lists and reads
// its resource, lists and calls its tools, and lists and gets its prompt.
//
//   node examples/weather/client.mjs                         # starts examples/weather/server.mjs
//   node examples/weather/client.mjs http://127.0.0.1:3000/mcp  # or talks to a running server
import { fileURLToPath } from "node:url";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";

const target = process.argv[2];
const transport = target
  ? streamableHttpClientTransport(new URL(target))
  : stdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL("server.mjs", import.meta.url))],
    });

/** The text of the first text block of a result. */
const firstText = (/** @type {{ content: { type: string, text?: string }[] }} */ result) =>
  result.content.find((block) => block.type === "text")?.text ?? "";

const client = new Client({ name: "weather-client", version: "1.0.0" });
// 1. Connect
await client.connect(transport);
console.log("✅ Connected!");

// 2. List the resources
const resources = await client.resources();
console.log(`\n📁 Resources: ${resources.length}`);
for (const r of resources) console.log(`  - ${r.title ?? r.name}: ${r.uri}`);

// 3. Read the list of cities
const cities = await client.readResource("weather://cities");
const first = cities.contents[0];
const names = JSON.parse(first && "text" in first ? first.text : "[]").map(
  (/** @type {{ name: string, aliases: string[] }} */ c) => c.aliases[0] ?? c.name,
);
console.log(`\n🌍 Cities: ${names.slice(0, 5).join(", ")} (and ${names.length - 5} more)`);

// 4. List the tools
const tools = await client.tools();
console.log(`\n🔧 Tools: ${tools.length}`);
for (const t of tools) console.log(`  - ${t.name}: ${t.description}`);

// 5. Call a tool: the weather now
const now = await client.callTool("get_current_weather", { city: "北京" });
console.log(`\n🌤️  Result:\n${firstText(now)}`);

// 6. The forecast
const forecast = await client.callTool("get_forecast", { city: "上海", days: 3 });
console.log(`\n📅 Forecast:\n${firstText(forecast)}`);

// 7. List the prompts
const prompts = await client.prompts();
console.log(`\n💡 Prompts: ${prompts.length}`);
for (const p of prompts) console.log(`  - ${p.name}: ${p.description}`);

// 8. Get a prompt
const prompt = await client.getPrompt("analyze_weather", { city: "廣州" });
const message = prompt.messages[0]?.content;
console.log(`\n📝 The prompt:\n${message?.type === "text" ? message.text : ""}`);

await client.close();
