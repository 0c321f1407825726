// nginx in front of a cluster's nodes for the cluster scenario: one worker, round-robin
// with no stickiness (any node may serve any request, as docs/deployment.md configures it),
// keep-alive connections to the nodes, no buffering, no access log.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { track } from "./children.mjs";
import { freePort } from "./ports.mjs";

const binary = () => (existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx");

const accepting = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Starts nginx balancing over `ports`: `{ port, pid, stop() }`. */
export async function startNginx(ports, { keepalive = 64 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-bench-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  const port = await freePort();
  const conf = join(dir, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join("\n")}
    keepalive ${keepalive};
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
    }
  }
}
`,
  );
  const child = track(spawn(binary(), ["-p", dir, "-c", conf, "-e", join(dir, "error.log")], { stdio: "ignore" }));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const failed = new Promise((_, reject) => {
    child.once("error", (error) => reject(new Error(`nginx did not start (${error.message}); is it installed?`)));
    void exited.then(() => reject(new Error(`nginx exited; see ${dir}/error.log`)));
  });
  failed.catch(() => {}); // it also rejects when stop() ends nginx
  const deadline = Date.now() + 10_000;
  while (!(await Promise.race([accepting(port), failed]))) {
    if (Date.now() > deadline) throw new Error(`nginx does not accept connections on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
