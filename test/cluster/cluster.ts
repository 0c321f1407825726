import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type RunningRedis, startRedis } from "../../packages/redis/test/redis-server.js";
import { MCPKIT_BIN, waitFor } from "../interop/helpers.js";

/** The key every node signs multi round-trip request state with (the cluster's configuration). */
export const STATE_KEY = "cluster-test-state-key-0123456789abcdef";

export interface ClusterNode {
  port: number;
  pid: number;
  /** What the node printed on stderr so far. */
  log(): string;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A run that ends without its afterAll (a killed worker) leaves no process behind. */
function leaveNothingBehind(child: ChildProcess, exited: Promise<void>): void {
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  void exited.then(() => process.off("exit", orphaned));
}

export interface NodeOptions {
  /** The Redis of the cluster it joins (`--redis`); none: a lone node. */
  redis?: string;
  /** Its port (default: a free one); a revived node takes the port of the one that died. */
  port?: number;
  /** The built-in server it serves (default `everything`), and what follows its name (operands, its own flags). */
  server?: string;
  args?: string[];
  /** Variables beside this process's (MCPKIT_STATE_KEY is set). */
  env?: Record<string, string>;
  /** Its working directory (default: this process's). */
  cwd?: string;
}

/** One `mcpkit serve SERVER --port P [--redis URL] ARGS…` process, resolved once it serves HTTP. */
export async function startNode(options: NodeOptions = {}): Promise<ClusterNode> {
  const port = options.port ?? (await freePort());
  const cluster = options.redis === undefined ? [] : ["--redis", options.redis];
  const child: ChildProcess = spawn(
    process.execPath,
    [MCPKIT_BIN, "serve", options.server ?? "everything", "--port", String(port), ...cluster, ...(options.args ?? [])],
    {
      env: { ...process.env, MCPKIT_STATE_KEY: STATE_KEY, ...options.env },
      stdio: ["ignore", "ignore", "pipe"],
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    },
  );
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  leaveNothingBehind(child, exited);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node on ${port} did not start:\n${stderr}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("serving MCP on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`node on ${port} exited:\n${stderr}`)));
  });
  return {
    port,
    pid: child.pid as number,
    log: () => stderr,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Resolves once something accepts connections on the port. */
async function answering(port: number, timeoutMs = 10_000): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  await waitFor(accepts, `something to answer on port ${port}`, timeoutMs);
}

export interface Balancer {
  url: string;
  port: number;
  /** `METHOD upstream status` per finished request, in order. */
  requests(): string[];
  stop(): Promise<void>;
}

/**
 * nginx in front of the nodes: round-robin, no stickiness, no buffering (SSE), the chosen
 * node named in an X-Upstream header, and a node that refuses connections skipped.
 */
export async function startNginx(ports: number[], config?: (dir: string, port: number) => string): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  const port = await freePort();
  const conf = join(dir, "nginx.conf");
  writeFileSync(
    conf,
    config?.(dir, port) ??
      `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  log_format upstreams '$request_method $upstream_addr $status';
  access_log ${dir}/access.log upstreams;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`,
  );
  const binary = existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
  const child = spawn(binary, ["-p", dir, "-c", conf, "-e", join(dir, "error.log")], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  leaveNothingBehind(child, exited);
  child.once("error", () => {});
  await answering(port);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests: () => {
      const log = join(dir, "access.log");
      return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Cluster {
  url: string;
  redis: RunningRedis;
  nodes: ClusterNode[];
  balancer: Balancer;
  /** Starts a node again on the port of one that died (the balancer knows that port). */
  revive(node: ClusterNode): Promise<ClusterNode>;
  stop(): Promise<void>;
}

/** Redis, `count` nodes (of `everything`, or the server `node` names) and nginx in front, all on loopback ports. */
export async function startCluster(count = 3, node: Omit<NodeOptions, "redis" | "port"> = {}): Promise<Cluster> {
  const redis = await startRedis();
  const nodes = await Promise.all(Array.from({ length: count }, () => startNode({ ...node, redis: redis.url })));
  const balancer = await startNginx(nodes.map((n) => n.port));
  const cluster: Cluster = {
    url: balancer.url,
    redis,
    nodes,
    balancer,
    async revive(dead) {
      const fresh = await startNode({ ...node, redis: cluster.redis.url, port: dead.port });
      cluster.nodes[cluster.nodes.indexOf(dead)] = fresh;
      return fresh;
    },
    async stop() {
      await balancer.stop();
      await Promise.all(cluster.nodes.map((n) => n.kill()));
      await cluster.redis.stop();
    },
  };
  return cluster;
}

/**
 * A fetch for a client behind the balancer that records, in `callsOn`, the node that
 * answered each tools/call (nginx's x-upstream header); `to` may send requests elsewhere.
 */
export function recordingCallNodes(callsOn: string[], to?: (url: string) => string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(to ? to(String(input)) : input, init);
    if (typeof init?.body === "string" && init.body.includes('"tools/call"'))
      callsOn.push(response.headers.get("x-upstream") ?? "");
    return response;
  };
}
