import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, type ClientOptions } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { CLI_BIN, until } from "../cli-call/helpers.js";

/**
 * What the testkit tests share: the fixture servers, a client that does one session of
 * everything a recording can hold, and a server over HTTP in a child process.
 */

export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const CALC = `${FIXTURES}calc-server.mjs`;
export const calc = (...flags: string[]) => [process.execPath, CALC, ...flags];

export type Revision = "2025-11-25" | "2026-07-28";

/** A client that answers what the calculator asks: a root, an elicitation, a sampling request. */
export function recordingClient(protocolVersion: Revision | undefined, extra: Partial<ClientOptions> = {}): Client {
  return new Client({
    name: "recording-client",
    version: "1.0.0",
    ...(protocolVersion && { protocolVersion }),
    roots: [{ uri: "file:///projects/a", name: "a" }],
    elicitation: () => ({ action: "accept", content: { ok: true } }),
    sampling: () => ({ role: "assistant", content: { type: "text", text: "in short" }, model: "test-model" }),
    ...extra,
  });
}

/** One session of everything: a result, progress and a log, each kind of server request, a timestamp. */
export async function everything(client: Client): Promise<string[]> {
  const said: string[] = [];
  const text = (result: { content?: unknown }) =>
    ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? "").join("");
  said.push(JSON.stringify((await client.callTool("add", { a: 2, b: 3 })).structuredContent));
  said.push(text(await client.callTool("count", { n: 2 }, { onprogress: () => {} })));
  said.push(text(await client.callTool("confirm", { what: "the order" })));
  said.push(text(await client.callTool("summarize", { text: "a long text" })));
  said.push(text(await client.callTool("roots", {})));
  said.push(text(await client.callTool("now", {})));
  return said;
}

/** What `everything` gets from a calculator that works. */
export const EVERYTHING = [
  '{"sum":5}',
  "counted to 2",
  "confirmed the order",
  "in short",
  "1 roots: file:///projects/a",
  "the time",
];

/** Runs `mcpkit record --out FILE … -- SERVER…` as a client would start its server, and a session through it. */
export async function recordOverStdio(out: string, protocol: Revision, server: string[], flags: string[] = []) {
  const client = recordingClient(protocol);
  const transport = stdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, "record", "--out", out, ...flags, "--", ...server],
    stderr: "pipe",
  });
  let stderr = "";
  const connecting = client.connect(transport);
  transport.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  await connecting;
  const said = await everything(client);
  await client.close();
  await until(() => transport.exit !== undefined, 10_000, "the relay to exit");
  return { said, stderr, exit: transport.exit };
}

const started = new Set<ChildProcess>();

/** The calculator over Streamable HTTP in a child process: its URL, and how to stop it. */
export async function calcOverHttp(...flags: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [CALC, "--http", ...flags], { stdio: ["ignore", "pipe", "inherit"] });
  started.add(child);
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  await until(() => out.includes("\n"), 10_000, "the calculator to print its URL");
  return {
    url: out.trim(),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const closed = new Promise((resolve) => child.once("close", resolve));
      child.kill("SIGTERM");
      await closed;
      started.delete(child);
    },
  };
}

/** Stops the HTTP calculators a test left running. */
export async function stopServers(): Promise<void> {
  await Promise.all(
    [...started].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((resolve) => child.once("close", resolve));
        child.kill("SIGKILL");
        await closed;
      }
    }),
  );
  started.clear();
}
