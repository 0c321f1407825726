#!/usr/bin/env node
// The cost of middleware in mcpkit, in process (no I/O): the echo tool driven with
// tools/call through an in-memory linked pair (JSON text in, session, middleware,
// dispatcher, handler, JSON text out), 64 calls in flight, with no middleware, with one
// middleware that only calls next(), and with serverTelemetry() recording a span and a
// histogram point per call into the OTel SDK, whose exporter drops what it is given.
// Variants alternate within each round. Prints one JSON object. Not part of `npm run bench`:
//
//   npm run build && node bench/middleware.mjs
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { serverTelemetry } from "mcpkit/otel";
import { createServer } from "mcpkit/server";
import { createLinkedPair } from "mcpkit/testing";
import { z } from "zod";
import { median } from "./lib/stats.mjs";
import { DESCRIPTION, NAME } from "./servers/lib/echo.mjs";

const ROUNDS = Number(process.env.BENCH_MIDDLEWARE_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_MIDDLEWARE_CALLS ?? 100_000);
const IN_FLIGHT = 64;

/** An exporter that drops every span at once: what remains is the cost of making them. */
const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropping)] });
const meterProvider = new MeterProvider();

const variants = {
  none: () => undefined,
  "next-only": () => [(_ctx, next) => next()],
  otel: () => [serverTelemetry({ tracerProvider, meterProvider })],
};

async function connect(middleware) {
  const server = createServer({ name: "middleware-bench", version: "1", middleware });
  server.tool(NAME, { description: DESCRIPTION, input: z.object({ text: z.string() }) }, (args) => args.text);
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
  return { call, close: () => client.close() };
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

const peers = {};
for (const [name, middleware] of Object.entries(variants)) {
  peers[name] = await connect(middleware());
  await run(peers[name], Math.min(CALLS, 20_000)); // warm-up
}
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(variants)) samples[name].push(await run(peers[name], CALLS));
}
for (const peer of Object.values(peers)) await peer.close();
const none = median(samples.none);
const result = {};
for (const [name, calls] of Object.entries(samples)) {
  const us = median(calls);
  result[name] = {
    usPerCall: us,
    usPerCallMin: Math.min(...calls),
    usPerCallMax: Math.max(...calls),
    addedUsPerCall: us - none,
  };
}
process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, calls: CALLS, inFlight: IN_FLIGHT, variants: result })}\n`);
