import { createServer, type McpServer, type ServerOptions } from "mcpkit/server";
import { registerApp } from "./app.js";
import { registerClientChecks } from "./client-checks.js";
import { registerModernFixtures } from "./modern.js";
import { registerPrompts } from "./prompts.js";
import { registerResources } from "./resources.js";
import { registerSkills } from "./skills.js";
import { registerTaskFixtures } from "./tasks.js";
import { registerTools } from "./tools.js";

/**
 * The everything server: every MCP feature in one place, under the fixture names the
 * official conformance suite expects (../shared/conformance/README.md).
 */
export function createEverythingServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = createServer({
    name: "mcpkit-everything",
    title: "mcpkit everything server",
    version: "0.1.0",
    description: "Exercises every MCP feature; the conformance fixture",
    websiteUrl: "https://github.com/mcpkit/mcpkit",
    icons: [
      {
        src: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
        mimeType: "image/png",
        sizes: ["1x1"],
      },
    ],
    instructions: "A test server: every tool, resource and prompt exists to exercise one protocol feature.",
    ...options,
  });
  const state = { watched: "Watched resource, version 1" };
  registerTools(server, state);
  registerResources(server, state);
  registerPrompts(server);
  registerModernFixtures(server);
  registerSkills(server);
  registerTaskFixtures(server);
  registerApp(server);
  registerClientChecks(server);
  return server;
}
