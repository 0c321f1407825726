// The Streamable HTTP load client: plain node:http with a keep-alive Agent, the same code
// and cost for every server. Answers may come as JSON or as a request-scoped SSE stream.
import { Agent, request as httpRequest } from "node:http";
import { percentile } from "./stats.mjs";

export const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const ACCEPT = "application/json, text/event-stream";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};
// The load's tools/call bodies, serialized once: only the id changes.
const LEGACY_CALL_TAIL = `,"method":"tools/call","params":${JSON.stringify({ name: "echo", arguments: { text: "hello" } })}}`;
const MODERN_CALL_TAIL = `,"method":"tools/call","params":${JSON.stringify({
  name: "echo",
  arguments: { text: "hello" },
  _meta: MODERN_META,
})}}`;
const MODERN_HEADERS = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" };

/** Finds the JSON-RPC answer in a JSON body or an SSE stream. */
function parseAnswer(contentType, text) {
  if (text.length === 0) return undefined;
  if (!contentType?.startsWith("text/event-stream")) return JSON.parse(text);
  let answer;
  for (const event of text.split(/\r?\n\r?\n/)) {
    let data = "";
    for (const line of event.split(/\r?\n/)) {
      if (line.startsWith("data:")) data += (data ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
    }
    if (data === "") continue;
    const message = JSON.parse(data);
    if (message.id !== undefined && message.method === undefined) answer = message;
  }
  return answer;
}

export class HttpPeer {
  /** @param {number} port @param {Agent} agent */
  constructor(port, agent) {
    this.port = port;
    this.agent = agent;
    this.nextId = 0;
    this.sessionId = undefined;
    this.version = LEGACY;
    /** The headers of the load's calls, fixed once the wire is known. */
    this.headers = undefined;
  }

  /** POSTs one message (or an already serialized one); `callback(error, answer, response)`. */
  post(message, headers, callback) {
    const body = typeof message === "string" ? message : JSON.stringify(message);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: this.port,
        path: "/mcp",
        method: "POST",
        agent: this.agent,
        headers: {
          host: `127.0.0.1:${this.port}`,
          "content-type": "application/json",
          accept: ACCEPT,
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          let answer;
          try {
            answer = parseAnswer(res.headers["content-type"], text);
          } catch (error) {
            return callback(error);
          }
          callback(undefined, answer, res);
        });
        res.on("error", callback);
      },
    );
    req.on("error", callback);
    req.end(body);
  }

  postAsync(message, headers) {
    return new Promise((resolve, reject) =>
      this.post(message, headers, (error, answer, res) => (error ? reject(error) : resolve({ answer, res }))),
    );
  }

  legacyHeaders() {
    const headers = { "mcp-protocol-version": this.version };
    if (this.sessionId !== undefined) headers["mcp-session-id"] = this.sessionId;
    return headers;
  }

  /** The 2025-era handshake: initialize (a session id if the server gives one), then initialized. */
  async initialize() {
    const { answer, res } = await this.postAsync(
      {
        jsonrpc: "2.0",
        id: ++this.nextId,
        method: "initialize",
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench", version: "1" } },
      },
      {},
    );
    if (!answer?.result) throw new Error(`initialize failed (${res.statusCode}): ${JSON.stringify(answer)}`);
    this.version = answer.result.protocolVersion;
    this.sessionId = res.headers["mcp-session-id"];
    const { res: ack } = await this.postAsync(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      this.legacyHeaders(),
    );
    if (ack.statusCode >= 300) throw new Error(`notifications/initialized answered ${ack.statusCode}`);
  }

  /** One tools/call echo on this peer's wire; `callback(error)`. */
  callEcho(modern, callback) {
    const id = ++this.nextId;
    const message = `{"jsonrpc":"2.0","id":${id}${modern ? MODERN_CALL_TAIL : LEGACY_CALL_TAIL}`;
    this.headers ??= modern ? MODERN_HEADERS : this.legacyHeaders();
    this.post(message, this.headers, (error, answer, res) => {
      if (error) return callback(error);
      if (answer?.id !== id || answer.result?.content?.[0]?.text !== "hello")
        return callback(new Error(`bad answer (${res.statusCode}): ${JSON.stringify(answer)}`));
      callback();
    });
  }

  /** One tools/call of any tool on the 2025 wire; `callback(error, result)`, an error also for an isError result. */
  callTool(name, args, callback) {
    const id = ++this.nextId;
    const message = { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
    this.headers ??= this.legacyHeaders();
    this.post(message, this.headers, (error, answer, res) => {
      if (error) return callback(error);
      if (answer?.id !== id || typeof answer.result?.content?.[0]?.text !== "string" || answer.result.isError)
        return callback(new Error(`bad answer (${res.statusCode}) to ${name}: ${JSON.stringify(answer)}`));
      callback(undefined, answer.result);
    });
  }

  callEchoAsync(modern) {
    return new Promise((resolve, reject) => this.callEcho(modern, (error) => (error ? reject(error) : resolve())));
  }
}

export const newAgent = (sockets) => new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });

/**
 * `connections` clients (each with its own session on the 2025 wires), each keeping one
 * tools/call in flight for `seconds` over a shared keep-alive Agent of `connections` sockets.
 */
export async function httpThroughput(peers, { modern, seconds, onStart }) {
  onStart?.();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    peers.map(async (peer) => {
      let n = 0;
      while (performance.now() < deadline) {
        await peer.callEchoAsync(modern);
        n++;
      }
      return n;
    }),
  );
  const calls = counts.reduce((a, b) => a + b, 0);
  return { calls, seconds: (performance.now() - started) / 1000 };
}

/** One tools/call at a time on one connection: latency percentiles in ms. */
export async function httpLatency(peer, { modern, calls }) {
  const samples = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await peer.callEchoAsync(modern);
    samples[i] = performance.now() - t0;
  }
  samples.sort();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Opens `count` initialized sessions with at most `concurrency` handshakes at a time. */
export async function openSessions(port, agent, count, concurrency) {
  let started = 0;
  const peers = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started++;
        const peer = new HttpPeer(port, agent);
        await peer.initialize();
        if (peer.sessionId === undefined) throw new Error("the server returned no Mcp-Session-Id");
        peers.push(peer.sessionId);
      }
    }),
  );
  return peers.length;
}
