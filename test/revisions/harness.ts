/**
 * The everything server and the mcpkit client linked in memory for one revision, with
 * both transports wrapped so every message each side sends is recorded as it would
 * appear on the wire (a JSON round trip of exactly what was passed to `send`).
 */

import { everythingServer } from "@mcpkit/servers/everything";
import type { CreateMessageResult, ElicitParams, ElicitResult, JsonRpcMessage, Revision, Transport } from "mcpkit";
import { Client, type ClientOptions } from "mcpkit/client";
import type { McpServer, ServerSession } from "mcpkit/server";
import { createLinkedPair } from "mcpkit/testing";
import { checkMessage, type Side, schemaFor, type TestedRevision } from "./schema-check.js";

export type WireValue = JsonRpcMessage | JsonRpcMessage[];
type Message = Record<string, unknown>;

export interface Wire {
  /** Everything the server sent, in order. */
  server: WireValue[];
  /** Everything the client sent, in order (including raw values we pushed through its transport). */
  client: WireValue[];
}

export interface Harness {
  revision: TestedRevision;
  server: McpServer;
  session: ServerSession;
  client: Client;
  clientTransport: Transport;
  wire: Wire;
  /** Failures the client or server could not hand to a caller (onError). */
  clientErrors: unknown[];
  serverErrors: unknown[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The version the client asks for; a string outside Revision tests negotiation. */
  protocolVersion: string;
  sampling?: boolean;
  /** Declares sampling.tools (2025-11-25). */
  samplingTools?: boolean;
  elicitation?: boolean;
  /** Declares elicitation.url (2025-11-25). */
  elicitationUrl?: boolean;
  roots?: boolean;
}

export const ROOTS = [{ uri: "file:///tmp/mcpkit-project", name: "project" }];

export const sampleAnswer = (): CreateMessageResult => ({
  role: "assistant",
  content: { type: "text", text: "Hello from the test model" },
  model: "test-model",
  stopReason: "endTurn",
});

type ElicitValue = NonNullable<ElicitResult["content"]>[string];

/**
 * Accepts every form: the first option of each enum, a fixed value otherwise; defaults are
 * left to the client. Multi-select (array) answers exist only from 2025-11-25, so an older
 * client leaves such a field out rather than send a value its revision cannot carry.
 */
export function elicitAnswer(params: ElicitParams, revision: TestedRevision): ElicitResult {
  if (params.mode === "url") return { action: "accept" };
  const content: Record<string, ElicitValue> = {};
  for (const [name, raw] of Object.entries(params.requestedSchema.properties)) {
    const field = raw as Record<string, unknown>;
    if ("default" in field) continue;
    const first = (list: unknown) => (Array.isArray(list) ? list[0] : undefined) as Record<string, unknown> | string;
    const items = field.items as Record<string, unknown> | undefined;
    if (field.type === "array") {
      if (revision !== "2025-11-25") continue;
      const option = first(items?.enum) ?? (first(items?.anyOf ?? items?.oneOf) as Record<string, unknown>)?.const;
      content[name] = [String(option)];
    } else if (Array.isArray(field.enum)) content[name] = String(field.enum[0]);
    else if (Array.isArray(field.oneOf)) content[name] = String((first(field.oneOf) as Record<string, unknown>).const);
    else if (field.type === "boolean") content[name] = true;
    else if (field.type === "number" || field.type === "integer") content[name] = 7;
    else content[name] = name === "email" ? "ada@example.com" : `${name}-value`;
  }
  return { action: "accept", content };
}

function record(transport: Transport, into: WireValue[]): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    into.push(JSON.parse(JSON.stringify(message)) as WireValue);
    send(message, options);
  };
}

export async function openHarness(revision: TestedRevision, options: HarnessOptions): Promise<Harness> {
  const wire: Wire = { server: [], client: [] };
  const clientErrors: unknown[] = [];
  const serverErrors: unknown[] = [];
  const server = everythingServer({ serverOptions: { onError: (e) => serverErrors.push(e) } }).server;
  const [clientTransport, serverTransport] = createLinkedPair();
  record(serverTransport, wire.server);
  record(clientTransport, wire.client);
  const session = await server.connect(serverTransport);

  const capabilities: NonNullable<ClientOptions["capabilities"]> = {};
  if (options.samplingTools) capabilities.sampling = { tools: {} };
  if (options.elicitationUrl) capabilities.elicitation = { form: {}, url: {} };
  const client = new Client({
    name: "revision-tests",
    version: "1.0.0",
    protocolVersion: options.protocolVersion as Revision,
    capabilities,
    onError: (e) => clientErrors.push(e),
    ...(options.sampling && { sampling: sampleAnswer }),
    ...(options.elicitation && { elicitation: (params: ElicitParams) => elicitAnswer(params, revision) }),
    ...(options.roots && { roots: ROOTS }),
  });
  await client.connect(clientTransport);
  return {
    revision,
    server,
    session,
    client,
    clientTransport,
    wire,
    clientErrors,
    serverErrors,
    close: async () => {
      await client.close();
      await session.closed;
    },
  };
}

/** Single messages of one side's wire, batches unfolded. */
export function flat(values: WireValue[]): Message[] {
  return values.flatMap((v) => (Array.isArray(v) ? v : [v])) as unknown as Message[];
}

/** id → method of the requests one side sent. */
export function requestMethods(values: WireValue[]): Map<unknown, string> {
  const map = new Map<unknown, string>();
  for (const m of flat(values)) if (typeof m.method === "string" && "id" in m) map.set(m.id, m.method);
  return map;
}

/** Every problem found in what `from` sent, against the harness's revision schema. */
export function wireProblems(h: Harness, from: Side, closed = false): string[] {
  const schema = schemaFor(h.revision);
  const sent = from === "server" ? h.wire.server : h.wire.client;
  const theirRequests = requestMethods(from === "server" ? h.wire.client : h.wire.server);
  return sent.flatMap((value) =>
    checkMessage(schema, value, { from, closed, requestMethod: (id) => theirRequests.get(id) }),
  );
}

/** The response the server sent to the client's request with this id. */
export function responseTo(h: Harness, id: unknown): Message | undefined {
  return flat(h.wire.server).find((m) => !("method" in m) && m.id === id);
}

/** The client's tools/call requests for a tool, in order, with the server's response to each. */
export function toolCalls(h: Harness, name: string): { request: Message; response: Message | undefined }[] {
  return flat(h.wire.client)
    .filter((m) => m.method === "tools/call" && (m.params as Message | undefined)?.name === name)
    .map((request) => ({ request, response: responseTo(h, request.id) }));
}

/** Polls until `test` holds (in-memory delivery is a few microtasks away). */
export async function waitFor(test: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
