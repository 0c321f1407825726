// @ts-check
// A slow tool that runs as a task: it reports progress, asks for confirmation, and
// finishes whether or not the client is still connected. PORT=3000 node deploy-server.mjs
import process from "node:process";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { z } from "zod";

/** Waits `ms`, or stops when the task is cancelled. */
const sleep = (/** @type {number} */ ms, /** @type {AbortSignal} */ signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export function createDeployServer({ stepMs = 300 } = {}) {
  const server = createServer({ name: "deployer", version: "1.0.0", tasks: { pollIntervalMs: 100 } });

  server.tool(
    "deploy",
    {
      description: "Builds a service and deploys it, after you confirm",
      input: z.object({ service: z.string() }),
      // The same handler runs as a task for clients that support tasks.
      task: "optional",
    },
    async ({ service }, ctx) => {
      for (const [i, step] of ["compile", "test", "package"].entries()) {
        ctx.progress(i + 1, 4, `${step} ${service}`);
        await sleep(stepMs, ctx.signal);
      }
      const answer = await ctx.elicit({
        message: `Deploy ${service} to production?`,
        schema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      if (answer.action !== "accept" || !answer.content?.confirm) return `Kept ${service} where it was`;
      ctx.progress(4, 4, `rolling out ${service}`);
      await sleep(stepMs * 3, ctx.signal);
      return `Deployed ${service}`;
    },
  );
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mcp = createStreamableHttpHandler(createDeployServer());
  const http = await listen(mcp, { port: Number(process.env.PORT ?? 3000) });
  console.log(`serving MCP on ${new URL("/mcp", http.url)}`);
  process.once("SIGTERM", () => void http.close());
}
