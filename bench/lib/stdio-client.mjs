// The stdio load client: plain Node, the same code and cost for every server. It spawns a
// server, frames newline-delimited JSON by hand, and correlates answers by id.
import { spawn } from "node:child_process";
import { track } from "./children.mjs";
import { percentile } from "./stats.mjs";

const CALL_PARAMS = { name: "echo", arguments: { text: "hello" } };
/** The load's tools/call, serialized once: only the id changes. */
const CALL_TAIL = `,"method":"tools/call","params":${JSON.stringify(CALL_PARAMS)}}`;

export class StdioPeer {
  /**
   * `wrap`: a command the server runs under (valgrind and its options: bench/instructions.mjs).
   * @param {string} script @param {{ env?: object, nodeArgs?: string[], args?: string[], wrap?: string[] }} [options]
   */
  constructor(script, options = {}) {
    this.startedAt = performance.now();
    const [command, ...prefix] = [...(options.wrap ?? []), process.execPath];
    this.child = track(
      spawn(command, [...prefix, ...(options.nodeArgs ?? []), script, ...(options.args ?? [])], {
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, ...options.env },
      }),
    );
    this.pid = this.child.pid;
    this.waiting = new Map();
    this.nextId = 0;
    this.outgoing = [];
    this.flushing = false;
    this.stderr = "";
    this.exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.once("exit", (code, signal) => {
      const failure = new Error(`${script} exited (${signal ?? code}) ${this.stderr.slice(-2000)}`);
      for (const callback of this.waiting.values()) callback(undefined, failure);
      this.waiting.clear();
    });
    this.child.stdin.on("error", () => {});
    this.child.stderr.setEncoding("utf8");
    this.stderrWaiters = [];
    this.child.stderr.on("data", (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
      for (const waiter of this.stderrWaiters.splice(0)) waiter();
    });
    let partial = "";
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => {
      let text = partial + chunk;
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        const line = text.slice(start, end);
        start = end + 1;
        if (line.length > 0) this.onLine(line);
      }
      text = text.slice(start);
      partial = text;
    });
  }

  onLine(line) {
    const message = JSON.parse(line);
    if (message.id === undefined || message.method !== undefined) return; // notifications, server requests
    const callback = this.waiting.get(message.id);
    if (callback === undefined) return;
    this.waiting.delete(message.id);
    callback(message);
  }

  /** Queues a message (or an already serialized line); what is queued in one turn goes out in one write. */
  write(message) {
    this.outgoing.push(typeof message === "string" ? message : JSON.stringify(message));
    if (this.flushing) return;
    this.flushing = true;
    queueMicrotask(() => {
      this.flushing = false;
      const text = `${this.outgoing.join("\n")}\n`;
      this.outgoing.length = 0;
      this.child.stdin.write(text);
    });
  }

  /** Sends a request; `callback(message, error)`. */
  call(method, params, callback) {
    const id = ++this.nextId;
    this.waiting.set(id, callback);
    this.write({ jsonrpc: "2.0", id, method, params });
  }

  /** The load's echo call: `callback(message, error)`. */
  callEcho(callback) {
    const id = ++this.nextId;
    this.waiting.set(id, callback);
    this.write(`{"jsonrpc":"2.0","id":${id}${CALL_TAIL}`);
  }

  request(method, params) {
    return new Promise((resolve, reject) =>
      this.call(method, params, (message, error) => (error ? reject(error) : resolve(message))),
    );
  }

  notify(method, params) {
    this.write(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  async initialize() {
    const answer = await this.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    });
    if (!answer.result) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
    this.notify("notifications/initialized");
    return answer.result;
  }

  /** The first JSON line on stderr with `key` (a probe's report, bench/lib/alloc-probe.mjs), after `from` characters. */
  async stderrJson(key, from = 0) {
    for (;;) {
      for (const line of this.stderr.slice(from).split("\n")) {
        if (!line.startsWith("{")) continue;
        try {
          const value = JSON.parse(line);
          if (key in value) return value[key];
        } catch {
          // A partial line: more is coming.
        }
      }
      await new Promise((resolve, reject) => {
        this.stderrWaiters.push(resolve);
        this.exited.then(() => reject(new Error(`exited before reporting "${key}": ${this.stderr}`)));
      });
    }
  }

  /** Ends stdin; after `graceMs` (time to exit on its own, e.g. to write a CPU profile) SIGTERM, then SIGKILL. */
  async close(graceMs = 0) {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const term = setTimeout(() => this.child.kill("SIGTERM"), graceMs);
    const kill = setTimeout(() => this.child.kill("SIGKILL"), graceMs + 2000);
    await this.exited;
    clearTimeout(term);
    clearTimeout(kill);
  }
}

const checkEcho = (message) => {
  if (message?.result?.content?.[0]?.text !== "hello") throw new Error(`bad answer: ${JSON.stringify(message)}`);
};

/** Spawn to the answer of the first tools/list (after initialize + initialized), ms. */
export async function coldStart(script, options) {
  const peer = new StdioPeer(script, options);
  try {
    await peer.initialize();
    const list = await peer.request("tools/list", {});
    const ms = performance.now() - peer.startedAt;
    if (!list.result?.tools?.some((tool) => tool.name === "echo"))
      throw new Error(`bad tools/list: ${JSON.stringify(list).slice(0, 2000)}`);
    return ms;
  } finally {
    await peer.close();
  }
}

/**
 * tools/call with `inFlight` requests outstanding for `seconds` (or until `calls` have
 * been started): calls/s. No new call starts after the deadline; the window ends with the
 * last answer.
 */
export function throughput(peer, { inFlight, seconds = Infinity, calls = Infinity }) {
  return new Promise((resolve, reject) => {
    let outstanding = 0;
    let started = 0;
    let done = 0;
    let failed;
    const startedAt = performance.now();
    const deadline = startedAt + seconds * 1000;
    const call = () => {
      outstanding++;
      started++;
      peer.callEcho(onAnswer);
    };
    const onAnswer = (message, error) => {
      outstanding--;
      try {
        if (error) throw error;
        checkEcho(message);
      } catch (e) {
        failed ??= e;
      }
      done++;
      if (failed === undefined && started < calls && performance.now() < deadline) call();
      else if (outstanding === 0) {
        if (failed) reject(failed);
        else resolve({ calls: done, seconds: (performance.now() - startedAt) / 1000 });
      }
    };
    while (outstanding < inFlight && started < calls) call();
  });
}

/** One tools/call at a time: latency percentiles in ms. */
export async function sequentialLatency(peer, calls) {
  const samples = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    checkEcho(await new Promise((resolve, reject) => peer.callEcho((m, e) => (e ? reject(e) : resolve(m)))));
    samples[i] = performance.now() - t0;
  }
  samples.sort();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}
