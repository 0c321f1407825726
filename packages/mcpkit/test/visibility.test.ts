import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../src/client/index.js";
import type { Revision } from "../src/protocol/versions.js";
import { createServer, type McpServer, principalOf, type ServerSession } from "../src/server/index.js";
import { createLinkedPair } from "../src/testing/index.js";
import type { Transport } from "../src/transports/transport.js";

/** The server end of a pair whose every message carries a verified principal, as an authenticating endpoint's do. */
function authenticated(transport: Transport, subject: string): Transport {
  return {
    binding: transport.binding,
    start: (sink) =>
      transport.start({
        message: (value, info) => sink.message(value, { ...info, auth: { subject } }),
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      }),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
}

/** Alice's principal, as her verified token (no issuer here) names her. */
const ALICE = principalOf({ subject: "alice" });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connect(server: McpServer, who: { subject: string; app: string; revision?: Revision }) {
  const [clientSide, serverSide] = createLinkedPair();
  let session: ServerSession | undefined;
  const connecting = server.connect(authenticated(serverSide, who.subject)).then((s) => {
    session = s;
  });
  const client = new Client({ name: who.app, version: "1", ...(who.revision && { protocolVersion: who.revision }) });
  await client.connect(clientSide);
  await connecting;
  const changes: string[] = [];
  await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, (n) =>
    changes.push(n.method),
  );
  closers.push(() => client.close());
  return { client, session: session as ServerSession, changes };
}

/**
 * Lets every notification already sent to `client` arrive: a round trip on its connection,
 * whose answer comes after them.
 */
const settle = (client: Client) => client.ping();

function server() {
  const s = createServer({ name: "s", version: "1" });
  s.tool("public", {}, () => "for all");
  s.tool("admin", { visible: (v) => v.principal === ALICE }, () => "for alice");
  s.tool("for_admin_app", { visible: (v) => v.clientInfo?.name === "admin-app" }, () => "for the app");
  s.resource("test://secret", { visible: (v) => v.principal === ALICE }, () => "secret");
  s.resourceTemplate("test://vault/{id}", { name: "vault", visible: (v) => v.principal === ALICE }, () => "x");
  s.prompt("plan", { visible: (v) => v.principal === ALICE }, () => "plan");
  s.tool(
    "broken_rule",
    {
      visible: () => {
        throw new Error("rule failed");
      },
    },
    () => "never",
  );
  return s;
}

const ERAS: { era: string; revision: Revision | undefined }[] = [
  { era: "legacy (2025-11-25)", revision: undefined },
  { era: "modern (2026-07-28)", revision: "2026-07-28" },
];

for (const { era, revision } of ERAS) {
  describe(`visibility, ${era}`, () => {
    it("shows a definition only to the principals and clients its rule names", async () => {
      const s = server();
      const alice = await connect(s, { subject: "alice", app: "admin-app", ...(revision && { revision }) });
      const bob = await connect(s, { subject: "bob", app: "other-app", ...(revision && { revision }) });

      expect((await alice.client.listTools()).tools.map((t) => t.name)).toEqual(["admin", "for_admin_app", "public"]);
      expect((await bob.client.listTools()).tools.map((t) => t.name)).toEqual(["public"]);
      expect(await alice.client.callTool("admin")).toMatchObject({ content: [{ text: "for alice" }] });
      // Hidden is unknown: the same error as a tool that does not exist (-32602).
      await expect(bob.client.callTool("admin")).rejects.toMatchObject({
        code: -32602,
        message: "Unknown tool: admin",
      });
      await expect(bob.client.callTool("for_admin_app")).rejects.toMatchObject({ code: -32602 });
      await expect(alice.client.callTool("broken_rule")).rejects.toMatchObject({ code: -32602 });

      expect((await alice.client.listResources()).resources.map((r) => r.uri)).toEqual(["test://secret"]);
      expect((await bob.client.listResources()).resources).toEqual([]);
      expect((await bob.client.listResourceTemplates()).resourceTemplates).toEqual([]);
      await expect(bob.client.readResource("test://secret")).rejects.toThrow(/not found/i);
      await expect(bob.client.readResource("test://vault/1")).rejects.toThrow(/not found/i);
      expect((await alice.client.readResource("test://vault/1")).contents).toHaveLength(1);
      expect((await bob.client.listPrompts()).prompts).toEqual([]);
      await expect(bob.client.getPrompt("plan")).rejects.toMatchObject({ code: -32602 });
      await expect(
        bob.client.complete({ ref: { type: "ref/prompt", name: "plan" }, argument: { name: "x", value: "" } }),
      ).rejects.toMatchObject({ code: -32602 });
    });

    it("tells only the clients whose view changed", async () => {
      const s = server();
      const alice = await connect(s, { subject: "alice", app: "a", ...(revision && { revision }) });
      const bob = await connect(s, { subject: "bob", app: "b", ...(revision && { revision }) });

      s.tool("alice_only", { visible: (v) => v.principal === ALICE }, () => "");
      await expect.poll(() => alice.changes).toEqual(["notifications/tools/list_changed"]);
      await settle(bob.client);
      expect(bob.changes).toEqual([]);

      const everyone = s.tool("everyone", {}, () => "");
      await expect.poll(() => bob.changes).toEqual(["notifications/tools/list_changed"]);
      expect(alice.changes).toHaveLength(2);

      // Hiding a definition from bob (disabled for everyone) tells alice only.
      s.resource("test://alice-notes", { visible: (v) => v.principal === ALICE }, () => "");
      await expect.poll(() => alice.changes).toContain("notifications/resources/list_changed");
      await settle(bob.client);
      expect(bob.changes).toEqual(["notifications/tools/list_changed"]);
      everyone.remove();
      await expect.poll(() => bob.changes).toHaveLength(2);
    });
  });
}

describe("disabling for one session (legacy era)", () => {
  it("hides a definition from that session only, and tells only it", async () => {
    const s = server();
    const alice = await connect(s, { subject: "alice", app: "a" });
    const other = await connect(s, { subject: "alice", app: "b" });
    alice.session.disable("public");
    expect(alice.session.isDisabled("public")).toBe(true);
    await expect.poll(() => alice.changes).toEqual(["notifications/tools/list_changed"]);
    expect((await alice.client.listTools()).tools.map((t) => t.name)).not.toContain("public");
    await expect(alice.client.callTool("public")).rejects.toMatchObject({ code: -32602 });
    expect(await other.client.callTool("public")).toMatchObject({ content: [{ text: "for all" }] });

    alice.session.disable("test://secret");
    await expect.poll(() => alice.changes).toContain("notifications/resources/list_changed");
    await expect(alice.client.readResource("test://secret")).rejects.toThrow(/not found/i);

    alice.session.enable("public");
    await expect.poll(() => alice.changes.filter((m) => m === "notifications/tools/list_changed")).toHaveLength(2);
    expect(await alice.client.callTool("public")).toMatchObject({ content: [{ text: "for all" }] });
    // Disabling what does not exist, or twice, changes no view.
    alice.session.disable("nothing-by-that-name");
    await settle(alice.client);
    await settle(other.client);
    expect(alice.changes).toHaveLength(3);
    expect(other.changes).toEqual([]);
  });
});
