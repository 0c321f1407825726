import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { readGatewayConfig, verifyAuditLog } from "@mcpkit/servers/gateway";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { clientOf, ERAS, later, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// The audit log: one JSON line per call (time, principal, session, upstream, what was
// called, the arguments' digest or redacted arguments, outcome, duration) in a file and in
// OpenTelemetry logs; secrets never written; each line chained to the one before.

const linesOf = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the audit log", () => {
  it("writes one line per call, with the arguments' digest by default", async () => {
    const dir = tempDir();
    const path = writeConfig(dir, {
      mcpServers: { notes: notesEntry("notes") },
      gateway: { audit: "logs/audit.jsonl" },
    });
    const { gateway } = await startGateway(path);
    const client = await clientOf(gateway);
    await client.tools();
    await client.callTool("notes_echo", { a: 1, b: "two" });
    await client.callTool("notes_echo", { b: "two", a: 1 });
    await client.getPrompt("notes_summary", { topic: "work" });
    await client.readResource("notes://notes/all");
    await client.callTool("notes_missing").catch(() => {});

    const file = join(dir, "logs", "audit.jsonl");
    // The lines of a turn are written at its end.
    await expect.poll(() => linesOf(file).length).toBe(5);
    const lines = linesOf(file);
    expect(lines.map((l) => [l.method, l.upstream, l.tool ?? l.prompt ?? l.resource, l.outcome])).toEqual([
      ["tools/call", "notes", "echo", "ok"],
      ["tools/call", "notes", "echo", "ok"],
      ["prompts/get", "notes", "summary", "ok"],
      ["resources/read", "notes", "notes://notes/all", "ok"],
      ["tools/call", undefined, undefined, "error"],
    ]);
    const [first, second] = lines;
    // In memory there is no session id (over HTTP there is: test/gateway/http.test.ts).
    expect(first).toMatchObject({ served: "notes_echo", seq: 1 });
    expect(first?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(typeof first?.durationMs).toBe("number");
    // The same arguments, whatever their order, have the same digest; nothing of them is written.
    expect(first?.argumentsDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second?.argumentsDigest).toBe(first?.argumentsDigest);
    expect(readFileSync(file, "utf8")).not.toContain("two");
    expect(lines[4]?.error).toMatchObject({ code: -32602 });
    expect(verifyAuditLog(readFileSync(file, "utf8"))).toEqual({ ok: true, lines: 5 });
  });

  it("writes arguments with redaction when asked, and never a secret the configuration holds", async () => {
    const dir = tempDir();
    const secret = "s3cr3t-api-key-value";
    writeFileSync(join(dir, "notes.env"), `NOTES_KEY=${secret}\n`);
    const path = writeConfig(dir, {
      mcpServers: { notes: { ...notesEntry("notes"), envFile: "notes.env" } },
      gateway: { audit: "audit.jsonl", auditArguments: "redacted", redact: ["customer-id"] },
    });
    const { gateway } = await startGateway(path);
    const client = await clientOf(gateway);
    await client.callTool("notes_echo", {
      query: "open issues",
      password: "hunter2",
      githubToken: "ghp_abc",
      nested: { Authorization: "Bearer xyz", customer_id: 42, note: `uses ${secret} inside` },
    });
    await expect.poll(() => linesOf(join(dir, "audit.jsonl")).length).toBe(1);
    const text = readFileSync(join(dir, "audit.jsonl"), "utf8");
    expect(linesOf(join(dir, "audit.jsonl"))[0]?.arguments).toEqual({
      query: "open issues",
      password: "[redacted]",
      githubToken: "[redacted]",
      nested: { Authorization: "[redacted]", customer_id: "[redacted]", note: "uses [redacted] inside" },
    });
    for (const leaked of ["hunter2", "ghp_abc", "xyz", secret]) expect(text).not.toContain(leaked);
  });

  it("shows a line edited, removed or inserted afterwards, and continues the chain of a file it finds", async () => {
    const dir = tempDir();
    const path = writeConfig(dir, { mcpServers: { notes: notesEntry("notes") }, gateway: { audit: "audit.jsonl" } });
    const file = join(dir, "audit.jsonl");
    {
      const { gateway } = await startGateway(path);
      const client = await clientOf(gateway);
      for (let i = 0; i < 3; i++) await client.callTool("notes_list_notes");
      await gateway.close();
    }
    {
      // Another run of the gateway appends to the same chain.
      const { gateway } = await startGateway(path);
      const client = await clientOf(gateway);
      await client.callTool("notes_list_notes");
      await gateway.close();
    }
    const text = readFileSync(file, "utf8");
    expect(verifyAuditLog(text)).toEqual({ ok: true, lines: 4 });
    const lines = text.split("\n").filter(Boolean);
    const edited = [...lines];
    edited[1] = (edited[1] as string).replace('"outcome":"ok"', '"outcome":"error"');
    expect(verifyAuditLog(edited.join("\n"))).toMatchObject({ ok: false, line: 2 });
    expect(verifyAuditLog([lines[0], lines[2], lines[3]].join("\n"))).toMatchObject({ ok: false, line: 2 });
    expect(verifyAuditLog([lines[0], lines[1], lines[2]].join("\n"))).toEqual({ ok: true, lines: 3 });
  });

  it("has one writer: another gateway given the same file is refused, told which process holds it", async () => {
    const dir = tempDir();
    const path = writeConfig(dir, { mcpServers: { notes: notesEntry("notes") }, gateway: { audit: "audit.jsonl" } });
    const file = join(dir, "audit.jsonl");
    const { gateway } = await startGateway(path);
    const client = await clientOf(gateway);
    await client.callTool("notes_list_notes");
    await expect(startGateway(path)).rejects.toThrow(
      `${file} is being written by another gateway (process ${process.pid}): one audit file has one writer`,
    );
    await client.callTool("notes_list_notes");
    await gateway.close();
    expect(verifyAuditLog(readFileSync(file, "utf8"))).toEqual({ ok: true, lines: 2 });
    expect(existsSync(`${file}.lock`)).toBe(false);

    // Closed, it is free again; a lock left by a process that is gone (killed) is taken over.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(`${file}.lock`, `${gone} ${hostname()}\n`);
    const next = await startGateway(path);
    await (await clientOf(next.gateway)).callTool("notes_list_notes");
    await next.gateway.close();
    expect(verifyAuditLog(readFileSync(file, "utf8"))).toEqual({ ok: true, lines: 3 });
  });

  it("refuses a reload to an audit file another gateway writes, and the last good configuration serves", async () => {
    const dir = tempDir();
    const other = writeConfig(
      dir,
      { mcpServers: { notes: notesEntry("notes") }, gateway: { audit: "b.jsonl" } },
      "b.json",
    );
    const { gateway: holder } = await startGateway(other);
    const path = writeConfig(dir, { mcpServers: { notes: notesEntry("notes") }, gateway: { audit: "a.jsonl" } });
    const { gateway } = await startGateway(path);
    const next = readGatewayConfig(
      JSON.stringify({ mcpServers: { more: notesEntry("more") }, gateway: { audit: "b.jsonl" } }),
      { file: path },
    );
    await expect(gateway.reload(next)).rejects.toThrow(/b\.jsonl is being written by another gateway/);
    expect(gateway.config.upstreams.map((u) => u.name)).toEqual(["notes"]);
    const client = await clientOf(gateway);
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
    await expect.poll(() => linesOf(join(dir, "a.jsonl")).length).toBe(1);
    await holder.close();
  });

  for (const { era, revision } of ERAS)
    it(`writes a call its ${era} client cancelled as cancelled, once the upstream was told`, async () => {
      const dir = tempDir();
      const path = writeConfig(dir, { mcpServers: { notes: notesEntry("notes") }, gateway: { audit: "audit.jsonl" } });
      const { gateway, log } = await startGateway(path);
      const client = await clientOf(gateway, revision);
      const controller = new AbortController();
      const call = client.callTool("notes_wait", {}, { signal: controller.signal }).catch((error: unknown) => error);
      await expect.poll(() => log).toContain("[notes] wait called");
      controller.abort();
      expect(await call).toBeInstanceOf(Error);
      // The upstream's own handler saw the cancellation: it travelled through the gateway.
      await expect.poll(() => log).toContain("[notes] wait cancelled");
      await expect.poll(() => linesOf(join(dir, "audit.jsonl")).length).toBe(1);
      const [line] = linesOf(join(dir, "audit.jsonl"));
      expect(line).toMatchObject({ tool: "wait", upstream: "notes", outcome: "cancelled" });
      expect(line?.error).toBeUndefined();
    });

  it("writes the round of a 2026-07-28 call that asks its client for input as input-required, the answered one as ok", async () => {
    const dir = tempDir();
    const path = writeConfig(dir, { mcpServers: { notes: notesEntry("notes") }, gateway: { audit: "audit.jsonl" } });
    const { gateway } = await startGateway(path);
    const { client, close } = await connectInMemory(gateway.server, {
      protocolVersion: "2026-07-28",
      roots: [{ uri: "file:///work" }],
    });
    later(close);
    // The upstream asks for the caller's roots: one call, two requests (the second carries the answer).
    expect(textOf(await client.callTool("notes_roots"))).toBe("file:///work");
    await expect.poll(() => linesOf(join(dir, "audit.jsonl")).length).toBe(2);
    expect(linesOf(join(dir, "audit.jsonl")).map((l) => [l.tool, l.outcome])).toEqual([
      ["roots", "input-required"],
      ["roots", "ok"],
    ]);
  });

  it("sends each line to OpenTelemetry logs as well", async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
    const path = writeConfig(tempDir(), { mcpServers: { notes: notesEntry("notes") } });
    const { gateway } = await startGateway(path, { auditLogger: provider.getLogger("mcpkit-gateway") });
    const client = await clientOf(gateway);
    expect(textOf(await client.callTool("notes_echo", { token: "t0k3n" }))).toContain("t0k3n");
    const [record] = exporter.getFinishedLogRecords();
    expect(record?.attributes).toMatchObject({
      "event.name": "mcpkit.gateway.call",
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "mcpkit.gateway.upstream": "notes",
      "mcpkit.gateway.outcome": "ok",
    });
    expect(record?.severityText).toBe("INFO");
    expect(String(record?.body)).not.toContain("t0k3n");
    await provider.shutdown();
  });
});
