import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPortableServer } from "../../examples/runtimes/server.mjs";
import { type Runtime, runtimeBinary } from "./binaries.js";
import { exercisePortableServer } from "./exercise.js";
import { assertBuilt, example, run, start, stopAll, waitForOutput } from "./processes.js";

/** How a test runs the examples on one runtime: the words after the binary, per script. */
export interface RuntimeUnderTest {
  runtime: Exclude<Runtime, "workerd">;
  /** What the runtime's navigator.userAgent looks like. */
  userAgent: RegExp;
  /** Runs a script that serves HTTP, one that serves stdio, and the client. */
  httpServer: string[];
  stdioServer: string[];
  client: string[];
}

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

/** mcpkit's server and client on another runtime, each facing mcpkit's other half on Node. */
export function runtimeSuite(under: RuntimeUnderTest): void {
  // Looked up in each test, so that a missing runtime fails every test with its reason.
  const binary = () => {
    assertBuilt();
    return runtimeBinary(under.runtime);
  };
  // The first run installs the runtime (scripts/test-packages.mjs): a download, given its
  // own time here. A failure is left to each test to report.
  beforeAll(() => {
    try {
      runtimeBinary(under.runtime);
    } catch {}
  }, 600_000);
  afterEach(stopAll);

  describe(`mcpkit's server on ${under.runtime}`, () => {
    it("serves Streamable HTTP: a Node client holds a 2025-11-25 session and sends 2026-07-28 requests", async () => {
      const server = start(binary(), under.httpServer, { PORT: "0" });
      const url = (await waitForOutput(server, /serving MCP on (\S+)/))[1] as string;
      for (const revision of REVISIONS) {
        const client = new Client({ name: "node-client", version: "1", protocolVersion: revision });
        await client.connect(streamableHttpClientTransport(url));
        expect(client.protocolVersion).toBe(revision);
        await exercisePortableServer(client, { runtime: under.userAgent, validator: "ajv" });
        await client.close();
      }
    });

    it("serves stdio: a Node client drives it as a child process", async () => {
      const client = new Client({ name: "node-client", version: "1" });
      await client.connect(stdioClientTransport({ command: binary(), args: under.stdioServer, stderr: "pipe" }));
      try {
        await exercisePortableServer(client, { runtime: under.userAgent, validator: "ajv" });
      } finally {
        await client.close(); // ends the child process, whatever the test found
      }
    });
  });

  describe(`mcpkit's client on ${under.runtime}`, () => {
    it("calls a Node server over Streamable HTTP, in a session and with 2026-07-28 requests", async () => {
      const mcp = createStreamableHttpHandler(createPortableServer());
      const http = await listen({ fetch: mcp.fetch, close: () => mcp.close() });
      try {
        const url = new URL("/mcp", http.url).href;
        for (const revision of REVISIONS) {
          const printed = JSON.parse(await run(binary(), [...under.client, url, revision]));
          expect(printed).toEqual({
            revision,
            sum: "5",
            countdown: "liftoff",
            progress: [1, 2, 3],
            server: { runtime: expect.stringMatching(/^Node\.js\//), validator: "ajv" },
          });
        }
      } finally {
        await http.close();
      }
    });

    it("starts a Node server over stdio and calls it", async () => {
      const printed = JSON.parse(
        await run(binary(), [...under.client, "--stdio", process.execPath, example("stdio-server.mjs")]),
      );
      expect(printed).toMatchObject({ sum: "5", countdown: "liftoff", progress: [1, 2, 3] });
      expect(printed.server.runtime).toMatch(/^Node\.js\//);
    });
  });
}
