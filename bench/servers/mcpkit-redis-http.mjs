// mcpkit as one node of a cluster: sessions, SSE events and the event bus in Redis
// (BENCH_REDIS_URL, a redis-server the runner started). Stateful mode only: what a
// session served by the node that holds it costs beyond the in-memory stores.
import { connectRedisCluster } from "@mcpkit/redis";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { ready } from "./lib/control.mjs";
import { BENCH_SESSION_CAPS, mcpkitBenchServer } from "./lib/mcpkit-server.mjs";

const redis = await connectRedisCluster(process.env.BENCH_REDIS_URL, { log: () => {} });
const server = await mcpkitBenchServer({
  eventBus: redis.eventBus,
  requestStateKey: "bench-state-key-0123456789abcdef0123",
});
const handler = createStreamableHttpHandler(server, {
  ...BENCH_SESSION_CAPS,
  sessionStore: redis.sessionStore,
  eventStore: redis.eventStore,
});
const listening = await listen(handler, { port: 0, host: "127.0.0.1" });
ready(listening.server);
