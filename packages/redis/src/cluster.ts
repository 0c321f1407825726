import { Redis } from "ioredis";
import { RedisEventBus } from "./event-bus.js";
import { RedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
import { RedisSessionStore, report } from "./session-store.js";
import { RedisTaskStore } from "./task-store.js";

export interface RedisClusterOptions extends Omit<RedisEventStoreOptions, "prefix"> {
  /** Prefix of every key and channel (default "mcpkit:"). */
  prefix?: string;
  /** Connection trouble and recoveries (default: printed to stderr). */
  log?: (line: string) => void;
}

/** What one node of a cluster needs: pass the stores to the endpoint, the bus to the server. */
export interface RedisCluster {
  redis: Redis;
  sessionStore: RedisSessionStore;
  eventStore: RedisEventStore;
  eventBus: RedisEventBus;
  /** Tasks (`createServer({ tasks: { store } })`): created on one node, polled and answered on any. */
  taskStore: RedisTaskStore;
  close(): Promise<void>;
}

/**
 * Connects one node to the Redis its cluster shares. Commands fail fast while Redis is
 * unreachable (no offline queue): a node cut off from Redis refuses new sessions rather
 * than serving state the others cannot see. ioredis reconnects on its own; the log says
 * when Redis is lost and when it is back.
 */
export async function connectRedisCluster(url: string, options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const log = options.log ?? ((line: string) => report(line));
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  // Four connections (commands, and three subscribers): Redis is back once all are.
  const down = new Set<string>();
  const connection = (name: string) => (up: boolean, error?: Error) => {
    if (!up) {
      if (down.size === 0) log(`Redis unreachable (${error?.message ?? "connection lost"}); retrying`);
      down.add(name);
    } else if (down.delete(name) && down.size === 0) {
      log("Redis reachable again");
    }
  };
  const commands = connection("commands");
  let lost = false;
  redis.on("error", (error: Error) => {
    if (!lost) commands(false, error);
    lost = true;
  });
  redis.on("ready", () => {
    if (lost) commands(true);
    lost = false;
  });
  await redis.connect();
  const onError = (error: unknown) => log(String(error));
  const prefix = options.prefix ?? "mcpkit:";
  const sessionStore = new RedisSessionStore(redis, { prefix, onError, onConnection: connection("sessions") });
  const eventBus = new RedisEventBus(redis, { prefix, onError, onConnection: connection("events") });
  const eventStore = new RedisEventStore(redis, { ...options, prefix });
  const taskStore = new RedisTaskStore(redis, { prefix, onError, onConnection: connection("tasks") });
  await Promise.all([sessionStore.ready, eventBus.ready, taskStore.ready]);
  return {
    redis,
    sessionStore,
    eventStore,
    eventBus,
    taskStore,
    async close() {
      await Promise.all([sessionStore.close(), eventBus.close(), taskStore.close()]);
      redis.disconnect();
    },
  };
}
