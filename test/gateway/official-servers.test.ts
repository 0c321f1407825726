import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyAuditLog } from "@mcpkit/servers/gateway";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, THIRD_PARTY } from "../interop/helpers.js";
import { type GatewayProcess, startGatewayProcess } from "./process.js";

// `mcpkit gateway` in front of servers it did not write: the official reference servers
// (server-everything and server-memory, stdio child processes), from a JSONC file with
// comments, a rename, a deny list, an env file, redaction and a virtual server, as
// docs/gateway.md tells a team to write one. Its clients are the official SDK's (the
// 2025 era, over Streamable HTTP) and mcpkit's (2026-07-28).

const dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-official-"));
const config = join(dir, "team.mcp.json");
const [node, everything] = THIRD_PARTY.everything as [string, string];
const memory = THIRD_PARTY.memory[1] as string;
const SECRET = "sk-memory-0123456789";

/** The file, with `more` (a second memory server) when asked, and `setting` first in its gateway section. */
const file = (more = false, setting = "") => `{
  // The team's servers: the reference server, and a knowledge graph.
  "mcpServers": {
    "everything": { "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(everything)}, "stdio"] },
    /* Its file and a key from an env file, never in a client. */
    "memory": { "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(memory)}], "envFile": "memory.env" },${
      more
        ? `
    "more": { "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(memory)}], "env": { "MEMORY_FILE_PATH": ${JSON.stringify(join(dir, "more.jsonl"))} } },`
        : ""
    }
  },
  "gateway": {${setting}
    "audit": "logs/audit.jsonl",
    "auditArguments": "redacted",
    "redact": ["observations"],
    "servers": {
      "everything": { "tools": { "deny": ["get-env", "trigger-sampling-*"], "rename": { "echo": "shout" } } },
    },
    "virtualServers": { "/graph": { "tools": ["memory_*"], "instructions": "The team's knowledge graph." } },
  },
}
`;

let gateway: GatewayProcess;
let sdk: SdkClient;
let modern: Client;
const sdkUpdates: string[] = [];
const sdkListChanges: string[] = [];

beforeAll(async () => {
  assertBuilt();
  writeFileSync(join(dir, "memory.env"), `MEMORY_FILE_PATH=${join(dir, "memory.jsonl")}\nMEMORY_KEY=${SECRET}\n`, {
    mode: 0o600,
  });
  writeFileSync(config, file(), { mode: 0o600 });
  gateway = await startGatewayProcess(config);
  sdk = new SdkClient({ name: "official-sdk", version: "1" });
  sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    sdkUpdates.push(n.params.uri);
  });
  sdk.setNotificationHandler(ToolListChangedNotificationSchema, (n) => {
    sdkListChanges.push(n.method);
  });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  modern = new Client({ name: "mcpkit", version: "1" });
  await modern.connect(streamableHttpClientTransport(gateway.url));
}, 60_000);

afterAll(async () => {
  await sdk?.close();
  await modern?.close();
  await gateway?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The process the gateway runs for an upstream, by a part of its command line (Linux's /proc). */
function upstreamPid(part: string): number {
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === gateway.pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(part)) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error(`no upstream process of the gateway runs ${part}`);
}

const auditLines = () =>
  readFileSync(join(dir, "logs", "audit.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const sdkText = (result: unknown) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "") as string;

describe("the gateway in front of server-everything and server-memory", () => {
  it("lists each upstream's tools under its name, as the file selects and renames them, in both eras", async () => {
    const names = (await sdk.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["everything_get-sum", "shout", "memory_read_graph"]));
    expect(names.filter((n) => !n.startsWith("everything_") && !n.startsWith("memory_"))).toEqual(["shout"]);
    for (const gone of ["everything_get-env", "everything_echo", "everything_trigger-sampling-request"])
      expect(names).not.toContain(gone);
    expect((await modern.tools()).map((t) => t.name).sort()).toEqual([...names].sort());
    expect(modern.protocolVersion).toBe("2026-07-28");
  });

  it("serves a virtual server: its tools only, with its instructions", async () => {
    const graph = new Client({ name: "graph", version: "1" });
    await graph.connect(streamableHttpClientTransport(`http://127.0.0.1:${gateway.port}/graph`));
    try {
      const names = (await graph.tools()).map((t) => t.name);
      expect(names).toContain("memory_read_graph");
      expect(names.every((n) => n.startsWith("memory_"))).toBe(true);
      expect(graph.instructions).toBe("The team's knowledge graph.");
      await expect(graph.callTool("everything_get-sum", { a: 1, b: 1 })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await graph.close();
    }
  });

  it("calls through from both clients", async () => {
    expect(sdkText(await sdk.callTool({ name: "shout", arguments: { message: "hi" } }))).toBe("Echo: hi");
    expect(sdkText(await sdk.callTool({ name: "everything_get-sum", arguments: { a: 2, b: 3 } }))).toMatch(/5/);
    await sdk.callTool({
      name: "memory_create_entities",
      arguments: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] },
    });
    const found = await modern.callTool("memory_search_nodes", { query: "Ada" });
    expect(JSON.stringify(found.content)).toContain("wrote the first program");
    expect(JSON.stringify((await modern.callTool("everything_get-sum", { a: 4, b: 5 })).content)).toMatch(/9/);
  });

  it("routes resources, templates, prompts and completion to the upstream they belong to", async () => {
    const uris = (await sdk.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain("memory://memory/knowledge-graph");
    const doc = uris.find((u) => u.startsWith("demo://everything/resource/static/document/")) as string;
    expect((await sdk.readResource({ uri: doc })).contents[0]?.uri).toBe(doc);
    const dynamic = "demo://everything/resource/dynamic/text/3";
    expect((await modern.readResource(dynamic)).contents[0]).toMatchObject({ uri: dynamic, text: /Resource 3/ });
    expect(JSON.stringify((await modern.readResource("memory://memory/knowledge-graph")).contents)).toContain("Ada");

    const completed = await sdk.complete({
      ref: { type: "ref/prompt", name: "everything_completable-prompt" },
      argument: { name: "name", value: "" },
      context: { arguments: { department: "Sales" } },
    });
    expect(completed.completion.values).toEqual(["David", "Eve", "Frank"]);
    const template = await modern.complete({
      ref: { type: "ref/resource", uri: "demo://everything/resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "7" },
    });
    expect(template.completion.values).toEqual(["7"]);
    const prompt = await modern.getPrompt("everything_completable-prompt", { department: "Sales", name: "Eve" });
    expect(prompt.messages[0]?.content).toMatchObject({ text: "Please promote Eve to the head of the Sales team." });
  });

  it("delivers an upstream's resource updates and progress to the caller, under the gateway's names", async () => {
    const uri = "demo://everything/resource/dynamic/text/2";
    await sdk.subscribeResource({ uri });
    const modernUpdates: string[] = [];
    const listen = await modern.listen({ resourceSubscriptions: [uri] }, (n) =>
      modernUpdates.push(String((n.params as { uri?: string }).uri)),
    );
    // The reference server sends an update of each subscribed URI at once, then every 5 s.
    await sdk.callTool({ name: "everything_toggle-subscriber-updates", arguments: {} });
    await expect.poll(() => sdkUpdates, { timeout: 10_000 }).toContain(uri);
    await expect.poll(() => modernUpdates, { timeout: 10_000 }).toContain(uri);
    await sdk.callTool({ name: "everything_toggle-subscriber-updates", arguments: {} });
    await listen.close();
    await sdk.unsubscribeResource({ uri });

    const progress: number[] = [];
    const done = await modern.callTool(
      "everything_trigger-long-running-operation",
      { duration: 0.4, steps: 2 },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(JSON.stringify(done.content)).toContain("Long running operation completed");
    expect(progress).toEqual([1, 2]);
  }, 30_000);

  it("writes one audit line per call, with the arguments redacted as configured", async () => {
    await sdk.callTool({
      name: "memory_add_observations",
      arguments: { observations: [{ entityName: "Ada", contents: ["private"] }] },
    });
    await modern.callTool("shout", { message: `key ${SECRET}` });
    await expect.poll(() => auditLines().filter((l) => l.served === "shout").length).toBe(2);
    const lines = auditLines();
    expect(lines.filter((l) => l.method === "tools/call").map((l) => l.served)).toEqual(
      expect.arrayContaining(["shout", "everything_get-sum", "memory_create_entities", "memory_search_nodes"]),
    );
    expect(lines.find((l) => l.tool === "add_observations")).toMatchObject({
      upstream: "memory",
      arguments: { observations: "[redacted]" },
      outcome: "ok",
    });
    expect(lines.filter((l) => l.served === "shout").map((l) => l.arguments)).toEqual([
      { message: "hi" },
      { message: "key [redacted]" },
    ]);
    // The SDK's calls carry its session; mcpkit's 2026-07-28 ones have none.
    expect(lines.find((l) => l.tool === "create_entities")?.session).toEqual(expect.any(String));
    const text = readFileSync(join(dir, "logs", "audit.jsonl"), "utf8");
    for (const secret of [SECRET, "private", "wrote the first program"]) expect(text).not.toContain(secret);
    expect(verifyAuditLog(text)).toMatchObject({ ok: true });
  });

  it("tells the caller of an upstream killed mid-call, answers from the other meanwhile, and starts it again", async () => {
    const pid = upstreamPid(everything);
    const from = gateway.log().length;
    let working: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      working = resolve;
    });
    const long = sdk
      .callTool(
        { name: "everything_trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
        undefined,
        { onprogress: () => working(), timeout: 60_000 },
      )
      .catch((error: unknown) => error as Error);
    // In flight upstream once it reports its first step.
    await inFlight;
    process.kill(pid, "SIGKILL");
    expect((await long).message).toMatch(
      /The "everything" server stopped \(.*killed by SIGKILL.*\); the gateway is starting it again/,
    );
    expect(JSON.stringify((await modern.callTool("memory_read_graph")).content)).toContain("Ada");
    await gateway.printed('the "everything" server stopped', from);
    await expect
      .poll(
        async () => {
          const health = (await (await fetch(`http://127.0.0.1:${gateway.port}/healthz`)).json()) as {
            upstreams: { name: string; state: string; restarts: number; lastError?: string }[];
          };
          return health.upstreams.find((u) => u.name === "everything");
        },
        { timeout: 20_000 },
      )
      .toMatchObject({ state: "ready", restarts: 1, lastError: expect.stringMatching(/SIGKILL/) });
    expect(sdkText(await sdk.callTool({ name: "everything_get-sum", arguments: { a: 1, b: 1 } }))).toMatch(/2/);
    expect(upstreamPid(everything)).not.toBe(pid);
  }, 40_000);

  it("serves a server added to the file without a restart, telling clients, and refuses a bad edit with its line and column", async () => {
    let from = gateway.log().length;
    const changes = sdkListChanges.length;
    writeFileSync(config, file(true));
    await gateway.printed("reloaded", from);
    await expect.poll(() => sdkListChanges.length).toBeGreaterThan(changes);
    expect((await sdk.listTools()).tools.map((t) => t.name)).toContain("more_read_graph");
    expect(sdkText(await sdk.callTool({ name: "more_read_graph", arguments: {} }))).toContain('"entities": []');

    from = gateway.log().length;
    const bad = file(true, `\n    "separator": 3,`);
    writeFileSync(config, bad);
    const offset = bad.indexOf('"separator": 3') + '"separator": '.length;
    const line = bad.slice(0, offset).split("\n").length;
    const column = offset - bad.lastIndexOf("\n", offset - 1);
    await gateway.printed(
      `changed but cannot be used; the last good configuration serves:\n${config}:${line}:${column}: gateway.separator: must be a string`,
      from,
    );
    expect(gateway.log().slice(from)).not.toContain("reloaded");
    expect(sdkText(await sdk.callTool({ name: "more_read_graph", arguments: {} }))).toContain('"entities": []');
  }, 30_000);
});
