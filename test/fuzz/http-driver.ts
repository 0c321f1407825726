import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { z } from "zod";
import { FOREIGN_ORIGINS, type Frame } from "./frames.js";
import { type Figures, problemWith, validIdOf, wrongAnswer } from "./oracle.js";
import type { Driver } from "./runner.js";

const ACCEPT = "application/json, text/event-stream";
const MODERN = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** Requests of one run in flight at once. */
const CONCURRENCY = 4;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * A Streamable HTTP endpoint on 127.0.0.1, in this process (so its heap can be measured),
 * fuzzed in one era: `legacy` posts every frame into a 2025-11-25 session, `modern` posts
 * each on its own as 2026-07-28.
 */
export class HttpDriver implements Driver {
  readonly transport: string;
  private listening: Listening | undefined;
  private url = "";
  private session = "";
  private failure = "";
  /** Failures the server reported to its onError. */
  reported = 0;

  constructor(private readonly era: "legacy" | "modern") {
    this.transport = era === "legacy" ? "http-2025-11-25" : "http-2026-07-28";
  }

  async start(): Promise<void> {
    // What the server reports (an error response from the client, say) is counted, not printed.
    const server = createServer({ name: "fuzz-http", version: "1", onError: () => this.reported++ });
    server.tool("echo", { input: z.object({ text: z.string() }) }, ({ text }) => text);
    const handler = createStreamableHttpHandler(server, { maxBodyBytes: 1024 * 1024 });
    this.listening = await listen(handler);
    this.url = new URL("/mcp", this.listening.url).href;
    if (this.era === "modern") return;
    const init = await this.post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
      }),
      {},
    );
    this.session = init.headers.get("mcp-session-id") ?? "";
    await init.text();
    await (await this.post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).text();
  }

  alive(): boolean {
    return this.listening !== undefined && this.failure === "";
  }

  death(): string {
    return this.failure;
  }

  async run(frames: Frame[], valid: () => { message: Record<string, unknown>; text: string }, figures: Figures) {
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < frames.length) {
        const frame = frames[next++] as Frame;
        figures.frames++;
        figures.bytes += frame.bytes.length;
        await this.noise(frame, figures, problems);
        const { message, text } = valid();
        figures.valid++;
        const problem = await this.ask(message, text, figures);
        if (problem) problems.push(`${problem} (after ${frame.kind})`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return problems;
  }

  async heapMiB(): Promise<number> {
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  }

  async close(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: ACCEPT };
    if (this.era === "modern") headers["mcp-protocol-version"] = MODERN;
    else if (this.session) {
      headers["mcp-session-id"] = this.session;
      headers["mcp-protocol-version"] = "2025-11-25";
    }
    return { ...headers, ...extra };
  }

  private post(body: string | Buffer, extra?: Record<string, string>): Promise<Response> {
    return fetch(this.url, { method: "POST", headers: this.headers(extra), body });
  }

  /** One hostile POST: any status but a 5xx, and every message in the answer passes the oracle. */
  private async noise(frame: Frame, figures: Figures, problems: string[]): Promise<void> {
    let response: Response;
    try {
      response = await this.post(frame.bytes, frame.headers);
    } catch (error) {
      this.failure = `the server dropped the connection: ${(error as Error).message}`;
      return;
    }
    figures.statuses ??= {};
    const statuses = figures.statuses;
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.status >= 500) problems.push(`HTTP ${response.status} for ${frame.kind}`);
    // DNS-rebinding protection: a foreign Origin never gets past the door.
    const origin = frame.headers?.origin;
    if (origin !== undefined && FOREIGN_ORIGINS.includes(origin) && response.status !== 403) {
      problems.push(`Origin ${origin} got HTTP ${response.status}, not 403 (${frame.kind})`);
    }
    for (const message of await messagesOf(response)) {
      const problem = problemWith(message, figures);
      if (problem) problems.push(`${problem} (${frame.kind})`);
    }
  }

  private async ask(message: Record<string, unknown>, text: string, figures: Figures): Promise<string | undefined> {
    const modern = this.era === "modern";
    const body = modern ? { ...message, params: { ...(message.params as object), _meta: ENVELOPE } } : message;
    const response = await this.post(
      JSON.stringify(body),
      modern ? { "mcp-method": "tools/call", "mcp-name": "echo" } : {},
    );
    const answer = (await messagesOf(response)).find((m) => validIdOf(m) === message.id);
    if (!answer) return `no answer to ${String(message.id)} (HTTP ${response.status})`;
    figures.answered++;
    return wrongAnswer(answer, text);
  }
}

/** The JSON-RPC messages of an answer: a JSON body, or the data of each SSE event. */
async function messagesOf(response: Response): Promise<unknown[]> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (text === "") return [];
  if (type.startsWith("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data:") && line.length > 5)
      .flatMap((line) => {
        const value = JSON.parse(line.slice(5));
        return Array.isArray(value) ? value : [value];
      });
  }
  const value = JSON.parse(text);
  return Array.isArray(value) ? value : [value];
}
