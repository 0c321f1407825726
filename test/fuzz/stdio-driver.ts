import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Frame } from "./frames.js";
import { type Figures, problemWith, validIdOf, wrongAnswer } from "./oracle.js";
import { type Driver, within } from "./runner.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const NEWLINE = Buffer.from("\n");
const ANSWER_MS = 30_000;

/** The fixture server as a child process, spoken to with newline-delimited frames (transports §stdio). */
export class StdioDriver implements Driver {
  readonly transport = "stdio";
  private child: ChildProcess | undefined;
  private exited = false;
  private stderr = "";
  private buffered = "";
  private problems: string[] = [];
  private figures: Figures | undefined;
  private readonly waiting = new Map<string, (message: unknown) => void>();
  private nextHeap = 0;

  async start(): Promise<void> {
    this.exited = false;
    this.stderr = "";
    this.buffered = "";
    const child = spawn(process.execPath, ["--expose-gc", FIXTURE], { stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    child.stdin?.on("error", () => {}); // EPIPE once it is gone: reported as its death
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => this.read(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    child.once("exit", () => {
      this.exited = true;
    });
    await this.write(
      Buffer.from(
        `${JSON.stringify({
          jsonrpc: "2.0",
          id: "valid:init",
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
        })}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
      ),
    );
    await within(this.answer("valid:init"), ANSWER_MS, "initialize");
  }

  alive(): boolean {
    return !this.exited;
  }

  death(): string {
    return `exit code ${this.child?.exitCode}, signal ${this.child?.signalCode}; stderr: ${this.stderr}`;
  }

  async run(frames: Frame[], valid: () => { message: Record<string, unknown>; text: string }, figures: Figures) {
    this.problems = [];
    this.figures = figures;
    const answers: Promise<string | undefined>[] = [];
    for (const frame of frames) {
      await this.write(Buffer.concat([frame.bytes, NEWLINE]));
      figures.frames++;
      figures.bytes += frame.bytes.length + 1;
      const { message, text } = valid();
      figures.valid++;
      const answered = this.answer(message.id as string);
      await this.write(Buffer.from(`${JSON.stringify(message)}\n`));
      answers.push(
        within(answered, ANSWER_MS, `valid request ${String(message.id)} after ${frame.kind}`).then(
          (m) => {
            figures.answered++;
            return wrongAnswer(m, text);
          },
          (error: Error) => (this.exited ? undefined : error.message),
        ),
      );
      if (this.exited) break;
    }
    for (const problem of await Promise.all(answers)) if (problem) this.problems.push(problem);
    // One more call through the same path, so that the answers to this run's noise are in.
    if (this.alive()) await this.barrier();
    return this.problems;
  }

  private async barrier(): Promise<void> {
    const id = `valid:barrier-${this.nextHeap++}`;
    const answered = this.answer(id);
    const call = { jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: "" } } };
    await this.write(Buffer.from(`${JSON.stringify(call)}\n`));
    await within(answered, ANSWER_MS, "barrier").catch(() => {});
  }

  async heapMiB(): Promise<number> {
    const id = `valid:heap-${this.nextHeap++}`;
    const answered = this.answer(id);
    await this.write(
      Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "heap" } })}\n`),
    );
    const message = (await within(answered, ANSWER_MS, "heap")) as { result: { content: { text: string }[] } };
    return Number(message.result.content[0]?.text);
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return;
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await gone;
    clearTimeout(timer);
  }

  private answer(id: string): Promise<unknown> {
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** Writes with backpressure: a frame waits for the pipe to drain, as a real client would. */
  private write(bytes: Buffer): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exited || stdin.destroyed) return Promise.resolve();
    if (stdin.write(bytes)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stdin.off("drain", done);
        this.child?.off("exit", done);
        resolve();
      };
      stdin.once("drain", done);
      this.child?.once("exit", done);
    });
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    let nl = this.buffered.indexOf("\n");
    while (nl !== -1) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      nl = this.buffered.indexOf("\n");
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.problems.push(`a line on stdout that is not JSON: ${line.slice(0, 200)}`);
        continue;
      }
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
}
