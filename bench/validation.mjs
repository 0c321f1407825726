#!/usr/bin/env node
// The cost of tool-argument validation in mcpkit, in process (no I/O): the same echo tool
// declared with zod, with the raw JSON Schema (Ajv), and with no input schema, driven with
// tools/call through an in-memory linked pair (the full dispatch path: JSON text in,
// session, dispatcher, tools/call handler, JSON text out), 64 calls in flight; plus the
// validator alone, built as mcpkit builds it (the schema's own `~standard.validate`; Ajv
// with mcpkit's options and formats, the default JSON Schema validator): the server's
// compiled validator is internal. Variants alternate within each round. Prints one JSON object.
import Ajv from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createServer } from "mcpkit/server";
import { createLinkedPair } from "mcpkit/testing";
import { z } from "zod";
import { median } from "./lib/stats.mjs";
import { DESCRIPTION, INPUT_JSON_SCHEMA, NAME } from "./servers/lib/echo.mjs";

const ROUNDS = Number(process.env.BENCH_VALIDATION_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_VALIDATION_CALLS ?? 100_000);
const VALIDATOR_CALLS = CALLS * 10;
const IN_FLIGHT = 64;

const variants = {
  zod: () => z.object({ text: z.string() }),
  "json-schema": () => INPUT_JSON_SCHEMA,
  none: () => undefined,
};

/** The check mcpkit runs for each variant's input (src/schema/validator.ts, ajv.ts). */
function validatorOf(input) {
  if (input === undefined) return undefined;
  if ("~standard" in input) return (value) => !input["~standard"].validate(value).issues;
  const ajv = new Ajv.default({ strict: false, addUsedSchema: false, allErrors: false });
  addFormats.default(ajv);
  return ajv.compile(input);
}

async function connect(input) {
  const server = createServer({ name: "validation-bench", version: "1" });
  server.tool(NAME, input === undefined ? { description: DESCRIPTION } : { description: DESCRIPTION, input }, (args) =>
    String(args.text),
  );
  const [client, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const waiting = new Map();
  client.start({
    message(message) {
      const callback = waiting.get(message.id);
      waiting.delete(message.id);
      callback?.(message);
    },
    invalid() {},
    close() {},
  });
  let nextId = 0;
  const call = (method, params, callback) => {
    const id = ++nextId;
    waiting.set(id, callback);
    client.send({ jsonrpc: "2.0", id, method, params });
  };
  await new Promise((resolve) =>
    call(
      "initialize",
      { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
      resolve,
    ),
  );
  client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { server, call, close: () => client.close() };
}

const params = { name: NAME, arguments: { text: "hello" } };

/** µs per tools/call with IN_FLIGHT outstanding. */
function run(peer, calls) {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const started = performance.now();
    const onAnswer = (message) => {
      if (message.result?.content?.[0]?.text !== "hello") return reject(new Error(JSON.stringify(message)));
      done++;
      if (sent < calls) {
        sent++;
        peer.call("tools/call", params, onAnswer);
      } else if (done === calls) resolve(((performance.now() - started) * 1000) / calls);
    };
    for (; sent < Math.min(IN_FLIGHT, calls); sent++) peer.call("tools/call", params, onAnswer);
  });
}

/** ns per call of the validator alone. */
function validatorAlone(validate) {
  if (!validate) return 0;
  const value = { text: "hello" };
  let ok = 0;
  const started = performance.now();
  for (let i = 0; i < VALIDATOR_CALLS; i++) if (validate(value)) ok++;
  const ns = ((performance.now() - started) * 1e6) / VALIDATOR_CALLS;
  if (ok !== VALIDATOR_CALLS) throw new Error("validation failed");
  return ns;
}

const peers = {};
for (const [name, input] of Object.entries(variants)) {
  peers[name] = await connect(input());
  peers[name].validate = validatorOf(input());
  await run(peers[name], Math.min(CALLS, 20_000)); // warm-up
  validatorAlone(peers[name].validate);
}
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, { call: [], validator: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(variants)) {
    samples[name].call.push(await run(peers[name], CALLS));
    samples[name].validator.push(validatorAlone(peers[name].validate));
  }
}
for (const peer of Object.values(peers)) await peer.close();
const none = median(samples.none.call);
const result = {};
for (const [name, { call, validator }] of Object.entries(samples)) {
  const us = median(call);
  result[name] = {
    usPerCall: us,
    usPerCallMin: Math.min(...call),
    usPerCallMax: Math.max(...call),
    addedUsPerCall: us - none,
    validatorNs: median(validator),
  };
}
process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, calls: CALLS, inFlight: IN_FLIGHT, variants: result })}\n`);
