import { createServer } from "mcpkit/server";
import { expect, it } from "vitest";
import { connectRedisCluster } from "../src/index.js";
import { startRedis } from "./redis-server.js";

// A node whose Redis goes away keeps running: a publication the bus cannot make reaches
// the server's onError, not an unhandled rejection that would end the process.

it("with Redis gone, resourceUpdated reports the failed publication to onError", async () => {
  const redis = await startRedis();
  const cluster = await connectRedisCluster(redis.url, { log: () => {} });
  const reported: unknown[] = [];
  let told!: () => void;
  const heard = new Promise<void>((resolve) => {
    told = resolve;
  });
  const server = createServer({
    name: "node",
    version: "1",
    eventBus: cluster.eventBus,
    onError: (error) => {
      reported.push(error);
      told();
    },
  });
  try {
    await redis.stop(true);
    server.resourceUpdated("file:///a.txt");
    await heard;
    expect(String(reported[0])).toMatch(/enableOfflineQueue|Connection is closed|ECONNREFUSED|writeable/);
  } finally {
    await cluster.close();
  }
}, 30_000);
