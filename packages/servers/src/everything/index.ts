import { createServer, type TaskServerOptions } from "mcpkit/server";
import type { ServerHandle } from "../handle.js";
import { registerApp } from "./app.js";
import { registerClientChecks } from "./client-checks.js";
import { registerModernFixtures } from "./modern.js";
import type { EverythingOptions } from "./options.js";
import { registerPrompts } from "./prompts.js";
import { registerResources } from "./resources.js";
import { registerSkills } from "./skills.js";
import { registerTaskFixtures } from "./tasks.js";
import { registerTools } from "./tools.js";

export type { ServerHandle } from "../handle.js";
export { type EverythingOptions, everythingOptions } from "./options.js";

/** The everything server holds nothing to release: `close()` is there for the shape every factory shares. */
export type EverythingServer = ServerHandle;

/**
 * The everything server: every MCP feature in one place, under the fixture names the
 * official conformance suite expects (../shared/conformance/README.md).
 */
export function everythingServer(options: EverythingOptions = {}): EverythingServer {
  const base = options.serverOptions ?? {};
  const tasks: TaskServerOptions = { ...base.tasks };
  if (options.maxTasksPerClient !== undefined) tasks.maxTasksPerClient = options.maxTasksPerClient;
  if (options.maxTaskArgumentBytes !== undefined) tasks.maxArgumentBytes = options.maxTaskArgumentBytes;
  if (options.maxTaskResultBytes !== undefined) tasks.maxResultBytes = options.maxTaskResultBytes;
  if (options.taskTtlMs !== undefined) tasks.ttlMs = options.taskTtlMs;
  if (options.maxTaskTtlMs !== undefined) tasks.maxTtlMs = options.maxTaskTtlMs;
  if (options.taskLeaseMs !== undefined) tasks.leaseMs = options.taskLeaseMs;
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
    ...base,
    ...(Object.keys(tasks).length > 0 && { tasks }),
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
  // Nothing to summarize: the server is the same every time.
  return { server, summary: "", close: async () => {} };
}
