import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../src/client/index.js";
import type { JsonObject } from "../src/jsonrpc/types.js";
import { createServer, type McpServer } from "../src/server/index.js";
import { principalOf } from "../src/server/principal.js";
import { createLinkedPair } from "../src/testing/index.js";
import type { Transport } from "../src/transports/transport.js";

// One guard per concern: every request that names a tool, prompt, resource or template
// is checked by the same code in both eras. A definition hidden from the caller (its
// visibility rule) is refused exactly as one that does not exist; one the caller sees but
// lacks the scopes for is refused with step-up (-32600, insufficient_scope).

type Era = "2025-11-25" | "2026-07-28";

/** The server end of a pair whose every message carries a verified token, as an authenticating endpoint's do. */
function authenticated(transport: Transport, auth: { subject: string; scopes: string[] }): Transport {
  return {
    binding: transport.binding,
    start: (sink) =>
      transport.start({
        message: (value, info) => sink.message(value, { ...info, auth }),
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      }),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
}

const ALICE = principalOf({ subject: "alice" });

/** Everything is for alice only, and needs the "admin" scope. */
function guardedServer(): McpServer {
  const server = createServer({ name: "guarded", version: "1" });
  const only = {
    visible: ({ principal }: { principal: string | undefined }) => principal === ALICE,
    scopes: ["admin"],
  };
  server.tool("wipe", only, () => "wiped");
  server.prompt(
    "audit",
    { ...only, args: { target: { description: "what to audit" } }, complete: { target: () => ["ledger"] } },
    () => "audit it",
  );
  server.resource("secret://ledger", { name: "ledger", ...only }, () => "1,2,3");
  server.resourceTemplate(
    "secret://books/{name}",
    { name: "book", ...only, complete: { name: () => ["q3"] } },
    (uri) => `book ${uri}`,
  );
  return server;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function caller(era: Era, subject: string, scopes: string[]): Promise<Client> {
  const [clientSide, serverSide] = createLinkedPair();
  const server = guardedServer();
  const connecting = server.connect(authenticated(serverSide, { subject, scopes }));
  const client = new Client({ name: subject, version: "1", protocolVersion: era });
  await client.connect(clientSide);
  await connecting;
  closers.push(() => client.close());
  return client;
}

/** A request naming a definition: `name`, the guarded one, or `missing`, one that does not exist. */
interface Case {
  method: string;
  eras: Era[];
  name: string;
  missing: string;
  params(name: string): JsonObject;
}

const BOTH: Era[] = ["2025-11-25", "2026-07-28"];
const CASES: Case[] = [
  { method: "tools/call", eras: BOTH, name: "wipe", missing: "nothing", params: (name) => ({ name, arguments: {} }) },
  { method: "prompts/get", eras: BOTH, name: "audit", missing: "nothing", params: (name) => ({ name }) },
  {
    method: "resources/read",
    eras: BOTH,
    name: "secret://ledger",
    missing: "secret://nothing",
    params: (uri) => ({ uri }),
  },
  {
    method: "resources/read",
    eras: BOTH,
    name: "secret://books/q3",
    missing: "other://books/q3",
    params: (uri) => ({ uri }),
  },
  {
    method: "resources/subscribe",
    eras: ["2025-11-25"],
    name: "secret://ledger",
    missing: "secret://nothing",
    params: (uri) => ({ uri }),
  },
  {
    method: "subscriptions/listen",
    eras: ["2026-07-28"],
    name: "secret://books/q3",
    missing: "other://books/q3",
    params: (uri) => ({ notifications: { resourceSubscriptions: [uri] } }),
  },
  {
    method: "completion/complete",
    eras: BOTH,
    name: "audit",
    missing: "nothing",
    params: (name) => ({ ref: { type: "ref/prompt", name }, argument: { name: "target", value: "" } }),
  },
  {
    method: "completion/complete",
    eras: BOTH,
    name: "secret://books/{name}",
    missing: "secret://nothing/{name}",
    params: (uri) => ({ ref: { type: "ref/resource", uri }, argument: { name: "name", value: "" } }),
  },
];

const refusal = (client: Client, method: string, params: JsonObject) =>
  client.request(method, params).then(
    () => undefined,
    (error: { code: number; message: string; data?: unknown }) => ({
      code: error.code,
      message: error.message,
      data: error.data,
    }),
  );

describe("one guard for every request that names a definition", () => {
  for (const c of CASES) {
    for (const era of c.eras) {
      const label = `${c.method} ${c.name} (${era})`;

      it(`hidden: ${label} is refused as if it did not exist`, async () => {
        const bob = await caller(era, "bob", ["admin"]);
        const hidden = await refusal(bob, c.method, c.params(c.name));
        const missing = await refusal(bob, c.method, c.params(c.missing));
        expect(missing, "a name that does not exist is refused").toBeDefined();
        const named = (refused: unknown, name: string) => JSON.stringify(refused).replaceAll(name, "<name>");
        expect(named(hidden, c.name)).toBe(named(missing, c.missing));
      });

      it(`lacking scope: ${label} is refused with step-up`, async () => {
        const alice = await caller(era, "alice", []);
        expect(await refusal(alice, c.method, c.params(c.name))).toMatchObject({
          code: -32600,
          message: expect.stringMatching(/^Insufficient scope: .* needs admin$/),
          data: { reason: "insufficient_scope", requiredScopes: ["admin"] },
        });
      });

      it(`allowed: ${label} is served to the principal with the scope`, async () => {
        const alice = await caller(era, "alice", ["admin"]);
        if (c.method === "subscriptions/listen") {
          const subscription = await alice.listen({ resourceSubscriptions: ["secret://books/q3"] }, () => {});
          expect(subscription.filter.resourceSubscriptions).toEqual(["secret://books/q3"]);
          await subscription.close();
          return;
        }
        expect(await refusal(alice, c.method, c.params(c.name))).toBeUndefined();
      });
    }
  }
});
