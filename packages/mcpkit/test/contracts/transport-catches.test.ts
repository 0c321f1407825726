import { describe, expect, it } from "vitest";
import type { JsonRpcMessage, RequestId } from "../../src/jsonrpc/types.js";
import { contractServer, transportContract } from "../../src/testing/index.js";
import { createLinkedPair } from "../../src/transports/memory/linked-pair.js";
import type { Transport } from "../../src/transports/transport.js";

// The contract must fail a transport that gets correlation wrong. Two such transports:
// one hands each answer to the oldest request still waiting (first in, first out) instead
// of the one its id names, which is right only while answers come in the order asked; the
// other keeps one table of waiting requests for all its sessions, keyed by id alone, which
// is right only while no two sessions have the same id in flight.

function firstInFirstOut(transport: Transport): Transport {
  const waiting: RequestId[] = [];
  const isRequest = (m: JsonRpcMessage) => "method" in m && "id" in m;
  return {
    binding: transport.binding,
    start: (sink) =>
      transport.start({
        message: (value, info) => {
          const message = value as JsonRpcMessage;
          if (!("method" in message) && "id" in message && waiting.length > 0) {
            sink.message({ ...message, id: waiting.shift() }, info);
          } else sink.message(value, info);
        },
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      }),
    send: (message, options) => {
      for (const m of Array.isArray(message) ? message : [message]) if (isRequest(m)) waiting.push(m.id as RequestId);
      transport.send(message, options);
    },
    close: () => transport.close(),
  };
}

/** Clients of one server whose answers go to whichever client last sent a request with that id. */
function sharedIdTable() {
  const waiting = new Map<RequestId, (message: JsonRpcMessage) => void>();
  return (transport: Transport): Transport => {
    let deliver: ((message: JsonRpcMessage) => void) | undefined;
    return {
      binding: transport.binding,
      start: (sink) => {
        deliver = (message) => sink.message(message);
        return transport.start({
          message: (value, info) => {
            const message = value as JsonRpcMessage;
            const owner = !("method" in message) && "id" in message ? waiting.get(message.id as RequestId) : undefined;
            if (owner) owner(message);
            else sink.message(value, info);
          },
          invalid: (error) => sink.invalid(error),
          close: (reason) => sink.close(reason),
        });
      },
      send: (message, options) => {
        for (const m of Array.isArray(message) ? message : [message])
          if ("method" in m && "id" in m && deliver) waiting.set(m.id as RequestId, deliver);
        transport.send(message, options);
      },
      close: () => transport.close(),
    };
  };
}

const fifoCases = transportContract(async () => {
  const [client, server] = createLinkedPair();
  await contractServer().connect(server);
  return { transport: firstInFirstOut(client) };
});

const sharedCases = transportContract(async () => {
  const server = contractServer();
  const shared = sharedIdTable();
  const pair = async () => {
    const [client, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    return shared(client);
  };
  const transport = await pair();
  const second = await pair();
  return { transport, another: () => second };
});

/** A case's outcome: "passed", or why it failed (a hung case fails after 3 s). */
async function outcome(name: string, cases = fifoCases): Promise<string> {
  const found = cases.find((c) => c.name === name);
  if (!found) throw new Error(`no contract case named "${name}"`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("hung: an answer never reached its request")), 3000);
  });
  try {
    await Promise.race([found.run(), timeout]);
    return "passed";
  } catch (error) {
    return String(error);
  } finally {
    clearTimeout(timer);
  }
}

describe("the transport contract catches wrong correlation", () => {
  it("a first-in-first-out transport still passes the cases whose answers come in order", async () => {
    expect(await outcome("gives each of many concurrent requests its own answer")).toBe("passed");
  });

  it.each([
    "answers requests out of order, each to the request that asked",
    "keeps a delayed answer for its request while later requests come and go",
  ])("fails a first-in-first-out transport: %s", async (name) => {
    expect(await outcome(name)).toMatch(/^AssertionError/);
  });

  it("fails a transport whose sessions share one table of request ids", async () => {
    expect(await outcome("gives each of many concurrent requests its own answer", sharedCases)).toBe("passed");
    expect(
      await outcome("keeps two sessions apart when both have the same request ids in flight", sharedCases),
    ).toMatch(/^AssertionError/);
  });
});
