import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { esbuildBinary, runtimeBinary } from "./binaries.js";
import { exercisePortableServer } from "./exercise.js";
import { assertBuilt, example, start, stopAll, waitForOutput } from "./processes.js";

// Cloudflare's Workers runtime, workerd, serving examples/runtimes/worker.mjs as `wrangler
// dev` would: the worker bundled with esbuild, a workerd configuration written from
// wrangler.json (its compatibility date and flags), and code generation from strings
// refused, as Workers do.

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
  // Everything workerd needs goes in a temporary folder, not in the repository.
  scratch = mkdtempSync(join(tmpdir(), "mcpkit-workerd-"));
  const wrangler = JSON.parse(readFileSync(example("wrangler.json"), "utf8")) as {
    main: string;
    compatibility_date: string;
    compatibility_flags?: string[];
  };
  execFileSync(esbuildBinary(), [
    example(wrangler.main),
    "--bundle",
    "--format=esm",
    "--platform=browser",
    "--conditions=workerd,worker,browser",
    "--external:node:*",
    `--outfile=${join(scratch, "worker.js")}`,
    "--log-level=warning",
  ]);
  const flags = (wrangler.compatibility_flags ?? []).map((f) => JSON.stringify(f)).join(", ");
  writeFileSync(
    join(scratch, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = ${JSON.stringify(wrangler.compatibility_date)},
  compatibilityFlags = [${flags}],
);
`,
  );
  const started = start(workerd, [
    "serve",
    join(scratch, "config.capnp"),
    "--socket-addr",
    "http=127.0.0.1:0",
    // workerd reports the port it bound on this descriptor once it listens.
    "--control-fd",
    "3",
  ]);
  const listening = await waitForOutput(started, /"port":(\d+)/, 60_000, started.child.stdio[3] as Readable);
  return `http://127.0.0.1:${listening[1]}/mcp`;
}

// The first run installs workerd (scripts/test-packages.mjs): a download, given its own
// time here. A failure is left to each test to report.
beforeAll(() => {
  try {
    runtimeBinary("workerd");
  } catch {}
}, 600_000);

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
