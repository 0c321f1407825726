import { afterEach, describe, expect, it } from "vitest";
import { createProxy, type McpProxy } from "../../src/compose/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import { REVISIONS, type Revision } from "../../src/protocol/versions.js";
import { createServer, type McpServer } from "../../src/server/index.js";
import { connectInMemory, createLinkedPair } from "../../src/testing/index.js";

/** The server being proxied: a bit of everything, and hooks to watch what reaches it. */
function upstreamServer() {
  let started!: () => void;
  const seen = { aborted: false, started: new Promise<void>((resolve) => (started = resolve)) };
  const server = createServer({ name: "upstream", version: "1.2.3", instructions: "Use add to add." });
  server.tool(
    "add",
    {
      description: "Adds",
      input: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    },
    ({ a, b }) => ({ content: [{ type: "text", text: String((a as number) + (b as number)) }] }),
  );
  server.tool("fail", {}, () => {
    throw new Error("it broke");
  });
  server.tool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Name?",
      schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    const roots = await ctx.listRoots();
    const sampled = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 5,
    });
    const said = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    return `${String(answer.content?.name)} / ${roots.map((r) => r.uri).join(",")} / ${said?.type === "text" ? said.text : "?"}`;
  });
  server.tool("slow", {}, async (_args, ctx) => {
    ctx.progress(1, 10, "started");
    started();
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    seen.aborted = true;
    return "cancelled";
  });
  server.resource("test://doc", { name: "doc", mimeType: "text/plain" }, () => "the doc");
  server.resourceTemplate(
    "test://items/{id}",
    { name: "item", complete: { id: (v) => ["1", "12", "2"].filter((x) => x.startsWith(v)) } },
    (_uri, { id }) => `item ${String(id)}`,
  );
  server.prompt(
    "greet",
    { args: { who: { description: "whom", required: true } }, complete: { who: () => ["Ada", "Alan"] } },
    ({ who }) => `Hello ${who}`,
  );
  return { server, seen };
}

const ERAS: { era: string; revision: Revision | undefined }[] = [
  { era: "legacy (2025-11-25)", revision: undefined },
  { era: "modern (2026-07-28)", revision: "2026-07-28" },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A proxy in front of `upstream` (connected in memory), closed with it after the test. */
async function proxyOf(upstream: McpServer, options?: Parameters<typeof createProxy>[1]): Promise<McpProxy> {
  const [clientSide, serverSide] = createLinkedPair();
  const upstreamSession = await upstream.connect(serverSide);
  const proxy = await createProxy(clientSide, options);
  closers.push(async () => {
    await proxy.close();
    await upstreamSession.close();
  });
  return proxy;
}

/** upstream server ⇄ proxy (its client speaks `upstreamRevision`) ⇄ a client speaking `revision`. */
async function chain(upstream: McpServer, upstreamRevision: Revision | undefined, revision: Revision | undefined) {
  const proxy = await proxyOf(upstream, {
    client: upstreamRevision ? { protocolVersion: upstreamRevision } : {},
    // A proxy speaks its upstream's era; asked to, it bridges a legacy upstream to modern callers.
    ...(revision && !upstreamRevision && { revisions: REVISIONS }),
  });
  const downstream = await connectInMemory(proxy.server, {
    ...(revision && { protocolVersion: revision }),
    roots: [{ uri: "file:///work" }],
    elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
    sampling: () => ({ role: "assistant", content: { type: "text", text: "hey" }, model: "m" }),
  });
  closers.push(downstream.close);
  return { proxy, client: downstream.client };
}

for (const downstream of ERAS) {
  for (const upstream of ERAS) {
    describe(`proxy: a ${downstream.era} client, a ${upstream.era} upstream`, () => {
      it("offers the upstream server's tools, resources, templates, prompts and completions as its own", async () => {
        const { server } = upstreamServer();
        const { client } = await chain(server, upstream.revision, downstream.revision);
        expect(client.serverInfo?.name).toBe("upstream");
        expect(client.instructions).toBe("Use add to add.");
        expect((await client.tools()).map((t) => t.name)).toEqual(["add", "ask", "fail", "slow"]);
        expect((await client.tools())[0]?.inputSchema).toEqual(
          server.definitions().tools.find((t) => t.name === "add")?.inputSchema,
        );
        const added = await client.callTool("add", { a: 2, b: 3 });
        expect(added).toMatchObject({ content: [{ type: "text", text: "5" }] });
        // What a 2026-07-28 upstream says about itself (resultType, its serverInfo) is not passed on.
        if (!downstream.revision) expect(Object.keys(added)).toEqual(["content"]);
        expect(await client.callTool("fail")).toMatchObject({ isError: true, content: [{ text: "it broke" }] });
        expect((await client.readResource("test://doc")).contents).toEqual([
          { uri: "test://doc", mimeType: "text/plain", text: "the doc" },
        ]);
        expect((await client.readResource("test://items/7")).contents[0]).toMatchObject({ text: "item 7" });
        expect((await client.resourceTemplates()).map((t) => t.uriTemplate)).toEqual(["test://items/{id}"]);
        const got = await client.getPrompt("greet", { who: "Bob" });
        expect(got.messages[0]?.content).toEqual({ type: "text", text: "Hello Bob" });
        const byTemplate = await client.complete({
          ref: { type: "ref/resource", uri: "test://items/{id}" },
          argument: { name: "id", value: "1" },
        });
        expect(byTemplate.completion.values).toEqual(["1", "12"]);
        const byPrompt = await client.complete({
          ref: { type: "ref/prompt", name: "greet" },
          argument: { name: "who", value: "" },
        });
        expect(byPrompt.completion.values).toEqual(["Ada", "Alan"]);
      });

      it("passes the upstream server's errors on with their codes", async () => {
        const { server } = upstreamServer();
        const { client } = await chain(server, upstream.revision, downstream.revision);
        const error = await client.callTool("add", { a: "x" }).then(
          (r) => r,
          (e: unknown) => e,
        );
        // Invalid arguments: a tool error (2025-11-25 and later) or -32602, as the upstream revision says.
        if (error instanceof McpError) expect(error.code).toBe(-32602);
        else expect(error).toMatchObject({ isError: true });
        await expect(client.readResource("test://nothing")).rejects.toBeInstanceOf(McpError);
        await expect(client.callTool("no_such_tool")).rejects.toMatchObject({ code: -32602 });
      });

      it("asks the downstream client what the upstream server asks of its client", async () => {
        const { server } = upstreamServer();
        const { client } = await chain(server, upstream.revision, downstream.revision);
        const result = await client.callTool("ask");
        expect(result.content).toEqual([{ type: "text", text: "Ada / file:///work / hey" }]);
      });

      it("forwards progress, and cancels the upstream call when the caller cancels", async () => {
        const { server, seen } = upstreamServer();
        const { client } = await chain(server, upstream.revision, downstream.revision);
        const progress: unknown[] = [];
        const abort = new AbortController();
        const call = client.callTool("slow", {}, { signal: abort.signal, onprogress: (p) => progress.push(p) });
        await seen.started;
        await expect.poll(() => progress.length).toBe(1);
        expect(progress[0]).toMatchObject({ progress: 1, total: 10, message: "started" });
        abort.abort(new Error("stop"));
        await expect(call).rejects.toThrow();
        await expect.poll(() => seen.aborted).toBe(true);
      });

      it("tells the client when an upstream list changes, and passes resource updates on", async () => {
        const { server } = upstreamServer();
        const { client, proxy } = await chain(server, upstream.revision, downstream.revision);
        const changes: string[] = [];
        const updates: unknown[] = [];
        await client.listen({ toolsListChanged: true, resourcesListChanged: true }, (n) => changes.push(n.method));
        client.on("notifications/resources/updated", (params) => updates.push(params.uri));
        server.tool("late", {}, () => "here");
        await expect.poll(() => changes).toContain("notifications/tools/list_changed");
        expect((await client.tools()).map((t) => t.name)).toContain("late");
        expect(await client.callTool("late")).toMatchObject({ content: [{ text: "here" }] });

        await client.subscribe("test://doc");
        server.resourceUpdated("test://doc");
        await expect.poll(() => updates).toEqual(["test://doc"]);

        server.resource("test://new", {}, () => "new");
        await expect.poll(() => changes).toContain("notifications/resources/list_changed");
        await expect.poll(async () => (await client.resources()).map((r) => r.uri)).toContain("test://new");
        // A sync that finds nothing new tells nobody anything.
        const before = changes.length;
        await proxy.refresh();
        expect(changes.length).toBe(before);
      });
    });
  }
}

// 2026-07-28 removed notifications/elicitation/complete: only a legacy upstream sends it.
for (const upstream of ERAS.slice(0, 1)) {
  it(`passes a URL-mode elicitation and its completion to a 2025-11-25 client (${upstream.era} upstream)`, async () => {
    const server = createServer({ name: "upstream", version: "1" });
    server.tool("sign_in", {}, async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: "url",
        message: "Sign in",
        url: "https://example.com/login",
        elicitationId: "e-1",
      });
      ctx.elicitationComplete("e-1");
      return answer.action;
    });
    const proxy = await proxyOf(server, { client: upstream.revision ? { protocolVersion: upstream.revision } : {} });
    const asked: unknown[] = [];
    const downstream = await connectInMemory(proxy.server, {
      capabilities: { elicitation: { url: {} } },
      elicitation: (params) => {
        asked.push(params);
        return { action: "accept" };
      },
    });
    closers.push(downstream.close);
    const completed: unknown[] = [];
    downstream.client.on("notifications/elicitation/complete", (params) => completed.push(params.elicitationId));
    expect(await downstream.client.callTool("sign_in")).toMatchObject({ content: [{ text: "accept" }] });
    expect(asked).toEqual([
      expect.objectContaining({ mode: "url", url: "https://example.com/login", elicitationId: "e-1" }),
    ]);
    await expect.poll(() => completed).toEqual(["e-1"]);
  });
}

it("mounts proxies into one server: a gateway to several servers, their changes passed through both", async () => {
  const { server: first } = upstreamServer();
  const second = createServer({ name: "second", version: "1" });
  second.tool("add", {}, () => "second's add");
  const hub = createServer({ name: "hub", version: "1" });
  for (const [prefix, upstream] of [
    ["one", first],
    ["two", second],
  ] as const) {
    hub.mount(prefix, (await proxyOf(upstream)).server);
  }
  const { client, close } = await connectInMemory(hub);
  closers.push(close);
  expect((await client.tools()).map((t) => t.name)).toEqual(["one_add", "one_ask", "one_fail", "one_slow", "two_add"]);
  expect(await client.callTool("one_add", { a: 1, b: 1 })).toMatchObject({ content: [{ text: "2" }] });
  expect(await client.callTool("two_add")).toMatchObject({ content: [{ text: "second's add" }] });
  expect((await client.readResource("test://one/doc")).contents[0]).toMatchObject({
    uri: "test://one/doc",
    text: "the doc",
  });
  const changes: string[] = [];
  client.on("notifications/tools/list_changed", () => changes.push("tools"));
  second.tool("late", {}, () => "late");
  await expect.poll(async () => (await client.tools()).map((t) => t.name)).toContain("two_late");
  expect(changes.length).toBeGreaterThan(0);
});

for (const upstream of ERAS) {
  it(`never asks one caller what another's call needs (${upstream.era} upstream, two sessions at once)`, async () => {
    const server = createServer({ name: "upstream", version: "1" });
    let arrived = 0;
    let release!: () => void;
    const bothIn = new Promise<void>((resolve) => (release = resolve));
    server.tool("whoami", {}, async (_args, ctx) => {
      if (++arrived === 2) release();
      await bothIn;
      const answer = await ctx.elicit({
        message: "Name?",
        schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      });
      return String(answer.content?.name);
    });
    const proxy = await proxyOf(server, { client: upstream.revision ? { protocolVersion: upstream.revision } : {} });
    const callers = await Promise.all(
      ["ada", "bob"].map((name) =>
        connectInMemory(proxy.server, { elicitation: () => ({ action: "accept", content: { name } }) }),
      ),
    );
    for (const c of callers) closers.push(c.close);
    const [ada, bob] = await Promise.all(
      callers.map((c) =>
        c.client.callTool("whoami").then(
          (r) => JSON.stringify(r),
          (e: unknown) => String(e),
        ),
      ),
    );
    // In one process the upstream's question travels in the async chain of the call it serves,
    // whatever the era (test/compose/proxy-cli.test.ts covers a legacy server over stdio).
    expect([ada, bob]).toEqual([expect.stringContaining('"ada"'), expect.stringContaining('"bob"')]);
  });
}

for (const upstream of ERAS) {
  it(`passes each caller the logs of its own call (${upstream.era} upstream, two sessions at once)`, async () => {
    const server = createServer({ name: "upstream", version: "1" });
    let arrived = 0;
    let release!: () => void;
    const bothIn = new Promise<void>((resolve) => (release = resolve));
    server.tool(
      "note",
      { input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      async ({ name }, ctx) => {
        if (++arrived === 2) release();
        await bothIn;
        ctx.log("info", `for ${String(name)}`);
        return "noted";
      },
    );
    const proxy = await proxyOf(server, { client: upstream.revision ? { protocolVersion: upstream.revision } : {} });
    const heard = { ada: [] as unknown[], bob: [] as unknown[] };
    const callers = await Promise.all(
      (["ada", "bob"] as const).map(async (name) => {
        const c = await connectInMemory(proxy.server);
        closers.push(c.close);
        c.client.on("notifications/message", (p) => heard[name].push(p.data));
        await c.client.setLogLevel("info");
        return { name, client: c.client };
      }),
    );
    await Promise.all(callers.map(({ name, client }) => client.callTool("note", { name })));
    // A call's log travels in its async chain: with calls of two sessions in progress, each is told its own.
    expect(heard).toEqual({ ada: ["for ada"], bob: ["for bob"] });
  });
}
