import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { JsonRpcMessage } from "mcpkit/jsonrpc";
import { createServer, type McpServer } from "mcpkit/server";
import { createLinkedPair } from "mcpkit/testing";
import { z } from "zod";
import type { Frame } from "./frames.js";
import { type Figures, problemWith, validIdOf, wrongAnswer } from "./oracle.js";
import { type Driver, within } from "./runner.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const ANSWER_MS = 10_000;

/**
 * The in-memory transport: it carries JSON values, so a frame that parses is sent as its
 * value (`__proto__` keys and all) and one that does not as the string it is.
 */
export class MemoryDriver implements Driver {
  readonly transport = "memory";
  private send: ((value: unknown) => void) | undefined;
  private close_: (() => Promise<void>) | undefined;
  private closed = false;
  private problems: string[] = [];
  private figures: Figures | undefined;
  private readonly waiting = new Map<string, (message: unknown) => void>();
  reported = 0;

  /** `define` registers the server's tools (default: a correct echo). */
  constructor(private readonly define: (server: McpServer) => void = defineEcho) {}

  async start(): Promise<void> {
    const server = createServer({ name: "fuzz-memory", version: "1", onError: () => this.reported++ });
    this.define(server);
    const [client, end] = createLinkedPair();
    await server.connect(end);
    this.closed = false;
    client.start({
      message: (value) => this.receive(value),
      invalid: (error) => this.problems.push(`the transport could not decode an answer: ${error.message}`),
      close: () => {
        this.closed = true;
      },
    });
    this.send = (value) => client.send(value as JsonRpcMessage);
    this.close_ = () => client.close();
    const init = this.answer("valid:init");
    this.send({
      jsonrpc: "2.0",
      id: "valid:init",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
    });
    await within(init, ANSWER_MS, "initialize");
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  alive(): boolean {
    return !this.closed;
  }

  death(): string {
    return "the connection closed";
  }

  async run(frames: Frame[], valid: () => { message: Record<string, unknown>; text: string }, figures: Figures) {
    this.problems = [];
    this.figures = figures;
    const answers: Promise<string | undefined>[] = [];
    for (const frame of frames) {
      figures.frames++;
      figures.bytes += frame.bytes.length;
      const text = frame.bytes.toString("utf8");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = text;
      }
      try {
        this.send?.(value);
      } catch {
        // Nesting too deep for this side's JSON.stringify: it cannot be sent in memory at all.
      }
      const request = valid();
      figures.valid++;
      const answered = this.answer(request.message.id as string);
      this.send?.(request.message);
      answers.push(
        within(answered, ANSWER_MS, `valid request ${String(request.message.id)} after ${frame.kind}`).then(
          (m) => {
            figures.answered++;
            return wrongAnswer(m, request.text);
          },
          (error: Error) => error.message,
        ),
      );
    }
    for (const problem of await Promise.all(answers)) if (problem) this.problems.push(problem);
    // One more call through the same path, so that the answers to this run's noise are in.
    if (this.alive()) await this.barrier();
    return this.problems;
  }

  private barriers = 0;

  private async barrier(): Promise<void> {
    const id = `valid:barrier-${this.barriers++}`;
    const answered = this.answer(id);
    this.send?.({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: "" } } });
    await within(answered, ANSWER_MS, "barrier").catch(() => {});
  }

  async heapMiB(): Promise<number> {
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  }

  async close(): Promise<void> {
    await this.close_?.();
  }

  private answer(id: string): Promise<unknown> {
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  private receive(message: unknown): void {
    for (const m of Array.isArray(message) ? message : [message]) {
      const problem = this.figures ? problemWith(m, this.figures) : undefined;
      if (problem) this.problems.push(problem);
      const id = validIdOf(m);
      if (id === undefined) continue;
      this.waiting.get(id)?.(m);
      this.waiting.delete(id);
    }
  }
}

function defineEcho(server: McpServer): void {
  server.tool("echo", { input: z.object({ text: z.string() }) }, ({ text }) => text);
}
