import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CheckResult, DoctorReport, DoctorTarget } from "../../packages/cli/src/doctor/index.js";

/**
 * Servers written to fail one way each: stdio fixtures run as real child processes (on the
 * Node that runs the tests), HTTP ones listen on 127.0.0.1, port 0.
 */

export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** A fixture server over stdio, as the doctor's target. */
export const stdioFixture = (file: string, ...args: string[]): DoctorTarget => ({
  kind: "stdio",
  command: process.execPath,
  args: [join(FIXTURES, file), ...args],
  env: {},
});

const dirs: string[] = [];

/** A scenario for raw-server.mjs, written to a file it reads; removed by cleanUp. */
export function rawServer(scenario: object): DoctorTarget {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-doctor-"));
  dirs.push(dir);
  const file = join(dir, "scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  return stdioFixture("raw-server.mjs", file);
}

export function cleanUp(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The check of an id (the last, when a diagnosis made it twice); fails the test when there is none. */
export function check(report: DoctorReport, id: string): CheckResult {
  const found = report.checks.findLast((c) => c.id === id);
  if (!found) throw new Error(`No "${id}" check in: ${report.checks.map((c) => c.id).join(", ")}`);
  return found;
}

/** "id: ok|error|warning|info" per check, in order: a diagnosis at a glance. */
export const outline = (report: DoctorReport) =>
  report.checks.map((c) => `${c.id}: ${c.ok ? (c.severity === "info" ? "info" : "ok") : c.severity}`);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
}

/** A plain node:http server on 127.0.0.1:0 that records every request it gets. */
export async function httpServer(
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<{ url: string; origin: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers });
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with JSON. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
