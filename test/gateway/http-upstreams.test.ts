import type { Revision } from "mcpkit";
import { createSseHandler, createStreamableHttpHandler, listen } from "mcpkit/http";
import { createServer, type McpServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { clientOf, ERAS, later, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// HTTP upstreams of each era on 127.0.0.1: a 2026-07-28 server (Streamable HTTP), a
// 2025-11-25 one (Streamable HTTP, sessions), a 2024-11-05 one (HTTP+SSE). The gateway's
// clients of both eras call through to each.

function tracker(name: string, revisions?: Revision[]) {
  const server = createServer({ name, version: "1.0.0", ...(revisions && { revisions }) });
  server.tool(
    "whoami",
    { description: `${name}'s tool` },
    (_args, ctx) => `${name} answered over ${ctx.revision ?? "?"}`,
  );
  server.prompt(
    "triage",
    { args: { issue: { required: true } }, complete: { issue: (v) => ["42", "43"].filter((i) => i.startsWith(v)) } },
    ({ issue }) => `Triage issue ${issue}`,
  );
  server.resource("tracker://issues", { name: "issues" }, () => "42, 43");
  return server;
}

async function serveHttp(server: McpServer, kind: "streamable" | "sse") {
  const handler =
    kind === "sse" ? createSseHandler(server, { messagesPath: "/messages" }) : createStreamableHttpHandler(server);
  const listening = await listen(handler, { port: 0, host: "127.0.0.1" });
  later(async () => {
    await listening.close();
    await server.close();
  });
  return new URL(kind === "sse" ? "/sse" : "/mcp", listening.url).href;
}

for (const { era, revision } of ERAS) {
  describe(`HTTP upstreams of every era, seen by a ${era} client`, () => {
    it("serves and calls each", async () => {
      const modern = await serveHttp(tracker("modern"), "streamable");
      const legacy = await serveHttp(tracker("legacy", ["2025-11-25"]), "streamable");
      const oldest = await serveHttp(tracker("oldest", ["2024-11-05"]), "sse");
      const path = writeConfig(tempDir(), {
        mcpServers: {
          modern: { type: "http", url: modern },
          legacy: { url: legacy },
          oldest: { type: "sse", url: oldest },
        },
      });
      const { gateway } = await startGateway(path);
      const client = await clientOf(gateway, revision);
      expect((await client.tools()).map((t) => t.name)).toEqual(["legacy_whoami", "modern_whoami", "oldest_whoami"]);
      expect(textOf(await client.callTool("modern_whoami"))).toBe("modern answered over 2026-07-28");
      expect(textOf(await client.callTool("legacy_whoami"))).toBe("legacy answered over 2025-11-25");
      expect(textOf(await client.callTool("oldest_whoami"))).toBe("oldest answered over 2024-11-05");
      const completed = await client.complete({
        ref: { type: "ref/prompt", name: "oldest_triage" },
        argument: { name: "issue", value: "4" },
      });
      expect(completed.completion.values).toEqual(["42", "43"]);
      expect((await client.readResource("tracker://oldest/issues")).contents[0]).toMatchObject({ text: "42, 43" });
      expect(gateway.health().upstreams.map((u) => [u.name, u.transport, u.state])).toEqual([
        ["modern", "http", "ready"],
        ["legacy", "http", "ready"],
        ["oldest", "sse", "ready"],
      ]);
    });
  });
}
