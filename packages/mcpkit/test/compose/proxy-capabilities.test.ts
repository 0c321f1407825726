import { describe, expect, it } from "vitest";
import { createProxy } from "../../src/compose/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createServer } from "../../src/server/index.js";
import { callerOf, later, proxyOf, scriptedUpstream } from "./helpers.js";

/** The proxy promises what its upstream promises: no more (a subscription nobody answers), no less. */

describe("the capabilities the proxy declares", () => {
  it("are the upstream's exactly: no listChanged, subscribe or logging it did not declare", async () => {
    const upstream = scriptedUpstream({ tools: {}, resources: {} }, (method) =>
      method === "tools/list" ? { tools: [{ name: "t", inputSchema: { type: "object" } }] } : { resources: [] },
    );
    const proxy = await createProxy(upstream.transport);
    later(() => proxy.close());
    const { client } = await callerOf(proxy);
    expect(client.serverCapabilities).toEqual({ tools: {}, resources: {} });
    // What was not declared does not exist.
    await expect(client.request("resources/subscribe", { uri: "test://x" })).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
    await expect(client.request("logging/setLevel", { level: "info" })).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
    await expect(client.request("prompts/list")).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
  });

  it("are a full mcpkit server's, extensions included", async () => {
    const server = createServer({ name: "full", version: "1" });
    server.tool("t", {}, () => "");
    server.prompt("p", {}, () => "");
    server.resource("test://r", {}, () => "");
    server.skill("pdf", { files: { "SKILL.md": "---\nname: pdf\ndescription: Reads PDFs\n---\nUse it.\n" } });
    const proxy = await proxyOf(server);
    const { client } = await callerOf(proxy);
    expect(client.serverCapabilities).toEqual(server.capabilities());
  });
});

describe("skills (the Skills extension) through the proxy", () => {
  it("lists them, gets one, reads a directory and loads a skill, its files verified against the digests", async () => {
    const server = createServer({ name: "skilled", version: "1" });
    server.skill("docs/pdf", {
      files: {
        "SKILL.md": "---\nname: pdf\ndescription: Reads PDFs\n---\nSee references/FORMS.md.\n",
        "references/FORMS.md": "# Forms\n",
      },
    });
    const proxy = await proxyOf(server);
    const { client } = await callerOf(proxy);
    const skills = await client.skills();
    expect(skills.map((s) => s.uri)).toEqual(["skill://docs/pdf/SKILL.md"]);
    expect(skills[0]?.frontmatter).toEqual({ name: "pdf", description: "Reads PDFs" });
    expect((await client.getSkill("skill://docs/pdf/SKILL.md")).resources).toHaveLength(2);
    const listed = await client.request("resources/directory/read", { uri: "skill://docs/pdf" });
    expect((listed.resources as { uri: string }[]).map((r) => r.uri)).toEqual([
      "skill://docs/pdf/SKILL.md",
      "skill://docs/pdf/references",
    ]);
    const loaded = await client.loadSkill(skills[0] as (typeof skills)[number]);
    expect(loaded.text).toContain("See references/FORMS.md.");
    expect(await loaded.readText("references/FORMS.md")).toBe("# Forms\n");
  });
});

describe("a proxy of a 2024-11-05 server", () => {
  it("forwards completion, which that revision had without a capability to declare it", async () => {
    const old = createServer({ name: "old", version: "1", revisions: ["2024-11-05"] });
    old.prompt(
      "summary",
      {
        args: { topic: { required: true } },
        complete: { topic: (v) => ["work", "home"].filter((t) => t.startsWith(v)) },
      },
      ({ topic }) => `About ${topic}`,
    );
    const proxy = await proxyOf(old);
    expect(proxy.client.protocolVersion).toBe("2024-11-05");
    const { client } = await callerOf(proxy, { protocolVersion: "2025-11-25" });
    expect(client.serverCapabilities?.completions).toEqual({});
    const completed = await client.complete({
      ref: { type: "ref/prompt", name: "summary" },
      argument: { name: "topic", value: "h" },
    });
    expect(completed.completion.values).toEqual(["home"]);
  });
});
