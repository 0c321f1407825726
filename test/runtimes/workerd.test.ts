import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, describe, expect, it } from "vitest";
import { esbuildBinary, runtimeBinary } from "./binaries.js";
import { exercisePortableServer } from "./exercise.js";
import { assertBuilt, example, start, stopAll, waitForOutput } from "./processes.js";

// Cloudflare's Workers runtime, workerd, serving examples/runtimes/worker.mjs as `wrangler
// dev` would: workerd bundles the worker from wrangler.json itself (with esbuild, as
// wrangler does) and refuses code generation from strings, as Workers do.

let scratch = "";
let serving: Promise<string> | undefined;

/** The worker's MCP URL, once workerd listens; started by the first test that asks. */
const workerUrl = () => {
  serving ??= startWorker();
  return serving;
};

async function startWorker(): Promise<string> {
  assertBuilt();
  const workerd = runtimeBinary("workerd");
  // The example's wrangler.json, copied out so that workerd's working files (.wrangler/)
  // land in a temporary folder rather than in the repository.
  scratch = mkdtempSync(join(tmpdir(), "mcpkit-workerd-"));
  const config = JSON.parse(readFileSync(example("wrangler.json"), "utf8")) as { main: string };
  const copy = join(scratch, "wrangler.json");
  writeFileSync(copy, JSON.stringify({ ...config, main: example(config.main) }));
  const started = start(
    workerd,
    [
      "serve",
      copy,
      "--socket-addr",
      "http=127.0.0.1:0",
      // workerd reports the port it bound on this descriptor once it listens.
      "--control-fd",
      "3",
    ],
    { WORKERD_ESBUILD: esbuildBinary() },
  );
  const listening = await waitForOutput(started, /"port":(\d+)/, 60_000, started.child.stdio[3] as Readable);
  return `http://127.0.0.1:${listening[1]}/mcp`;
}

afterAll(async () => {
  await stopAll();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("mcpkit's Web handler on workerd (Cloudflare Workers)", () => {
  it("holds a 2025-11-25 session, checking raw JSON Schema arguments without code generation", {
    timeout: 90_000,
  }, async () => {
    const client = new Client({ name: "node-client", version: "1", protocolVersion: "2025-11-25" });
    await client.connect(streamableHttpClientTransport(await workerUrl()));
    expect(client.protocolVersion).toBe("2025-11-25");
    await exercisePortableServer(client, { runtime: /^Cloudflare-Workers$/, validator: "cfworker" });
    await client.close();
  });

  it("answers 2026-07-28 requests, each on its own", async () => {
    const client = new Client({ name: "node-client", version: "1" });
    await client.connect(streamableHttpClientTransport(await workerUrl()));
    expect(client.protocolVersion).toBe("2026-07-28");
    await exercisePortableServer(client, { runtime: /^Cloudflare-Workers$/, validator: "cfworker" });
    await client.close();
  });
});
