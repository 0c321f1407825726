import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Gateway, type GatewayOptions, gatewayServer, readGatewayConfig } from "@mcpkit/servers/gateway";
import type { Revision } from "mcpkit";
import { connectInMemory } from "mcpkit/testing";
import { afterEach } from "vitest";

/** What the gateway's tests share: fixture servers, configuration files in a temporary folder, cleanup. */

export const NOTES_SERVER = fileURLToPath(new URL("./fixtures/notes-server.mjs", import.meta.url));

/** A stdio entry for the notes fixture, as mcpServers holds it. */
export const notesEntry = (name: string, era?: "legacy") => ({
  command: process.execPath,
  args: [NOTES_SERVER, name, ...(era ? [era] : [])],
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});
export const later = (close: () => Promise<void>) => closers.push(close);

/** A temporary folder for configuration files, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-"));
  later(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `config` (an object, or text as it is) to FILE in `dir`; returns the path. */
export function writeConfig(dir: string, config: object | string, file = "gateway.mcp.json"): string {
  const path = join(dir, file);
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return path;
}

/** A gateway of the configuration in `path`, its lines logged in `log`; closed after the test. */
export async function startGateway(path: string, options: GatewayOptions = {}) {
  const log: string[] = [];
  const { readFileSync } = await import("node:fs");
  const config = readGatewayConfig(readFileSync(path, "utf8"), { file: path });
  const gateway = await gatewayServer(config, { log: (line) => log.push(line), ...options });
  later(() => gateway.close());
  return { gateway, log };
}

/** A client of the gateway's server (or one of its virtual servers) in memory, in one era; closed after the test. */
export async function clientOf(gateway: Gateway, revision?: Revision, path?: string) {
  const server = path ? gateway.virtualServers().get(path) : gateway.server;
  if (!server) throw new Error(`no virtual server at ${path}`);
  const connected = await connectInMemory(server, revision ? { protocolVersion: revision } : {});
  later(connected.close);
  return connected.client;
}

export const ERAS: { era: string; revision: Revision | undefined }[] = [
  { era: "2025-11-25", revision: undefined },
  { era: "2026-07-28", revision: "2026-07-28" },
];

export const textOf = (result: { content?: unknown[] }) => (result.content?.[0] as { text?: string } | undefined)?.text;
