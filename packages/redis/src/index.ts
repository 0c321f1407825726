export { RedisAuthorizationStore, type RedisAuthorizationStoreOptions } from "./authorization-store.js";
export { connectRedisCluster, type RedisCluster, type RedisClusterOptions } from "./cluster.js";
export { RedisEventBus, type RedisEventBusOptions } from "./event-bus.js";
export { RedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
export { RedisSessionStore, type RedisSessionStoreOptions } from "./session-store.js";
export { RedisTaskStore, type RedisTaskStoreOptions } from "./task-store.js";
