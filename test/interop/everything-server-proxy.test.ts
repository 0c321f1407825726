/**
 * The official reference server, @modelcontextprotocol/server-everything, behind
 * `mcpkit serve proxy` (a real process, Streamable HTTP in front, the reference server
 * over stdio behind, one per client session), driven by mcpkit's client: every feature
 * the reference server has crosses the proxy as it crosses a direct connection
 * (test/interop/mcpkit-client-to-official-server.test.ts drives it directly).
 */

import { spawn } from "node:child_process";
import type { CreateMessageParams, ElicitParams, Root } from "mcpkit";
import type { Client } from "mcpkit/client";
import { Client as McpClient } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServed, mcpkitOverHttp, type Served, serveHttp } from "../serve/helpers.js";
import { firstText, freePort, THIRD_PARTY, waitFor } from "./helpers.js";

const ROOTS: Root[] = [{ uri: "file:///tmp/interop-proxy-root", name: "proxy-root" }];

let proxy: Served;
let client: Client;
let direct: McpClient;
const sampled: CreateMessageParams[] = [];
const elicited: ElicitParams[] = [];
const logs: { level?: unknown; data?: unknown }[] = [];
const updates: string[] = [];

beforeAll(async () => {
  [proxy, direct] = await Promise.all([
    serveHttp("proxy", ["--", ...THIRD_PARTY.everything, "stdio"]),
    (async () => {
      // It declares what the proxied client declares, so the server offers it the same tools.
      const c = new McpClient({
        name: "direct",
        version: "1",
        roots: ROOTS,
        capabilities: { elicitation: { url: {} } },
        sampling: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }),
        elicitation: () => ({ action: "decline" }),
      });
      await c.connect(
        stdioClientTransport({
          command: process.execPath,
          args: [...THIRD_PARTY.everything.slice(1), "stdio"],
          stderr: "ignore",
        }),
      );
      return c;
    })(),
  ]);
  client = await mcpkitOverHttp(proxy.url, {
    roots: ROOTS,
    capabilities: { elicitation: { url: {} } },
    sampling: (params) => {
      sampled.push(params);
      return { role: "assistant", content: { type: "text", text: "sampled through the proxy" }, model: "test-model" };
    },
    elicitation: (params) => {
      elicited.push(params);
      return { action: "accept", content: { name: "Ada", check: true, email: "ada@example.com" } };
    },
  });
  client.on("notifications/message", (params) => logs.push(params));
  client.on("notifications/resources/updated", (params) => updates.push(String(params.uri)));
}, 60_000);

afterAll(async () => {
  await direct?.close();
  await closeServed();
});

describe("server-everything behind mcpkit serve proxy", () => {
  it("declares exactly what the reference server declares, and names itself as it does", async () => {
    expect(client.serverCapabilities).toEqual(direct.serverCapabilities);
    expect(client.serverInfo).toMatchObject({ name: "mcp-servers/everything", version: "2.0.0" });
    expect(client.instructions).toBe(direct.instructions);
  });

  it("lists the same tools, task support included, and calls them", async () => {
    const tools = await client.tools();
    expect(tools.map((t) => t.name).sort()).toEqual((await direct.tools()).map((t) => t.name).sort());
    expect(tools.find((t) => t.name === "simulate-research-query")?.execution).toEqual({ taskSupport: "required" });
    expect(firstText(await client.callTool("echo", { message: "hi" }))).toBe("Echo: hi");
    expect(firstText(await client.callTool("get-sum", { a: 2, b: 40 }))).toContain("42");
  });

  it("passes progress through", async () => {
    const progress: number[] = [];
    await client.callTool(
      "trigger-long-running-operation",
      { duration: 0.2, steps: 2 },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2]);
  });

  it("reads static and template resources, and completes a template variable", async () => {
    const resources = await client.resources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0] as (typeof resources)[number];
    expect((await client.readResource(first.uri)).contents[0]?.uri).toBe(first.uri);
    const templated = await client.readResource("demo://resource/dynamic/text/1");
    expect(templated.contents[0]).toMatchObject({ uri: "demo://resource/dynamic/text/1", mimeType: "text/plain" });
    const completed = await client.complete({
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "1" },
    });
    expect(completed.completion.values.length).toBeGreaterThan(0);
  });

  it("delivers updates of a template URI it was subscribed to", async () => {
    await client.subscribe("demo://resource/dynamic/text/1");
    // The reference server sends its subscribers an update at once, then every 5 s.
    await client.callTool("toggle-subscriber-updates");
    await expect.poll(() => updates, { timeout: 15_000 }).toContain("demo://resource/dynamic/text/1");
    await client.callTool("toggle-subscriber-updates");
  });

  it("gets prompts and completes their arguments, the context included", async () => {
    expect((await client.prompts()).map((p) => p.name)).toContain("completable-prompt");
    const simple = await client.getPrompt("simple-prompt");
    expect(simple.messages.length).toBeGreaterThan(0);
    const names = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "" },
      context: { arguments: { department: "Sales" } },
    });
    expect(names.completion.values).toEqual(["David", "Eve", "Frank"]);
  });

  it("asks this client for sampling, elicitation and roots, as the server asked the proxy", async () => {
    const sampling = await client.callTool("trigger-sampling-request", { prompt: "Capital of France?", maxTokens: 10 });
    expect(JSON.stringify(sampling)).toContain("sampled through the proxy");
    expect(sampled.at(-1)?.maxTokens).toBe(10);
    const elicitation = await client.callTool("trigger-elicitation-request");
    expect(JSON.stringify(elicitation)).toContain("Ada");
    expect(elicited.at(-1)?.message).toContain("Please provide inputs");
    expect(JSON.stringify(await client.callTool("get-roots-list"))).toContain("file:///tmp/interop-proxy-root");
  });

  it("runs the task-only research tool as a task, while another session gets the logs sent to it outside any call", async () => {
    // A second session, idle but for the logs its server sends it every 5 s.
    const idle = await mcpkitOverHttp(proxy.url);
    const idleLogs: unknown[] = [];
    idle.on("notifications/message", (params) => idleLogs.push(params.data));
    await idle.setLogLevel("debug");
    await idle.callTool("toggle-simulated-logging");
    const heard = idleLogs.length;
    const mine = logs.length;
    const started = await client.callToolAsTask("simulate-research-query", { topic: "tides" });
    if (!started.task) throw new Error(`expected a task, got ${JSON.stringify(started.result)}`);
    const states: string[] = [];
    const result = await started.task.result({ onUpdate: (t) => states.push(t.status) });
    expect(firstText(result)).toContain("tides");
    expect(states.at(-1)).toBe("completed");
    await expect.poll(() => idleLogs.length, { timeout: 15_000 }).toBeGreaterThan(heard);
    await idle.callTool("toggle-simulated-logging");
    // Another session's logs are not this one's.
    expect(logs.length).toBe(mine);
  }, 30_000);
});

describe("server-everything over Streamable HTTP, directly and behind mcpkit serve proxy <url>", () => {
  const answers = {
    roots: ROOTS,
    elicitation: () => ({ action: "accept" as const, content: { name: "Grace", check: true } }),
  };
  let stop: () => void = () => {};
  let viaProxy: Client;
  let plain: Client;

  beforeAll(async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [...THIRD_PARTY.everything.slice(1), "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    stop = () => server.kill("SIGTERM");
    let stderr = "";
    server.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    await waitFor(() => stderr.includes("listening on port"), "server-everything to listen", 15_000);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const fronted = await serveHttp("proxy", [url.href]);
    [plain, viaProxy] = await Promise.all([mcpkitOverHttp(url, answers), mcpkitOverHttp(fronted.url, answers)]);
  }, 60_000);

  afterAll(() => stop());

  it("declares the same, lists the same, and calls the same", async () => {
    expect(viaProxy.serverCapabilities).toEqual(plain.serverCapabilities);
    // The server offers tools by the client's capabilities; the proxy shows each session what its server offers it.
    const offered = (await plain.tools()).map((t) => t.name).sort();
    await expect
      .poll(async () => (await viaProxy.tools()).map((t) => t.name).sort(), { timeout: 10_000 })
      .toEqual(offered);
    expect(offered).not.toContain("trigger-sampling-request");
    expect(firstText(await viaProxy.callTool("echo", { message: "over HTTP" }))).toBe("Echo: over HTTP");
  });

  it("delivers a template URI's updates, and asks this client what the server asks", async () => {
    const got: string[] = [];
    viaProxy.on("notifications/resources/updated", (params) => got.push(String(params.uri)));
    await viaProxy.subscribe("demo://resource/dynamic/blob/2");
    await viaProxy.callTool("toggle-subscriber-updates");
    await expect.poll(() => got, { timeout: 15_000 }).toContain("demo://resource/dynamic/blob/2");
    await viaProxy.callTool("toggle-subscriber-updates");
    expect(JSON.stringify(await viaProxy.callTool("trigger-elicitation-request"))).toContain("Grace");
    expect(JSON.stringify(await viaProxy.callTool("get-roots-list"))).toContain("interop-proxy-root");
  });
});
