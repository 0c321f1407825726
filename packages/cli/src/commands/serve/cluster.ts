import { installAdvice } from "../../install-advice.js";
import { UsageError } from "../usage-error.js";

export type Cluster = Awaited<ReturnType<typeof import("@mcpkit/redis").connectRedisCluster>>;

/** --state-key (or MCPKIT_STATE_KEY), long enough to sign request state. */
export function stateKey(key: string): string {
  if (Buffer.byteLength(key, "utf8") < 32)
    throw new UsageError("--state-key (or MCPKIT_STATE_KEY) must be at least 32 bytes");
  return key;
}

/** Connects to the cluster's Redis; loaded only with --redis, so other runs never load a Redis client. */
export async function joinCluster(options: { port?: string; redis?: string; stateKey?: string }): Promise<Cluster> {
  if (options.port === undefined) throw new UsageError("--redis needs --port: a cluster's nodes serve HTTP");
  if (options.stateKey === undefined) {
    throw new UsageError(
      "--redis needs --state-key or MCPKIT_STATE_KEY: every node must sign request state with the same key",
    );
  }
  stateKey(options.stateKey);
  // An optional peer: only clusters need it (and its Redis client).
  const { connectRedisCluster } = await import("@mcpkit/redis").catch(() => {
    throw new Error(
      `--redis needs the @mcpkit/redis package, which is not installed: ${installAdvice("@mcpkit/redis")}`,
    );
  });
  const url = options.redis as string;
  try {
    return await connectRedisCluster(url, { log: (line) => process.stderr.write(`mcpkit: ${line}\n`) });
  } catch (error) {
    throw new Error(`Cannot reach Redis at ${url}: ${(error as Error).message}`);
  }
}
