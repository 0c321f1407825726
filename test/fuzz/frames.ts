import fc from "fast-check";

/**
 * Hostile JSON-RPC/MCP frames, as a hostile client would send them: truncated and invalid
 * JSON, huge lines, deep nesting, invalid UTF-8, batches, `__proto__` keys, every field of
 * a message with a wrong type, unknown methods, and well-formed MCP requests with hostile
 * arguments. A frame is bytes (a stdio line or an HTTP body) and, when it parses, the value
 * (what the in-memory transport carries).
 */
export interface Frame {
  kind: string;
  bytes: Buffer;
  /** Hostile HTTP headers sent with it (HTTP only). */
  headers?: Record<string, string>;
}

/** Printed by fast-check in a counterexample: the kind, the size and the start of the frame. */
function frame(kind: string, content: string | Buffer, headers?: Record<string, string>): Frame {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return {
    kind,
    bytes,
    ...(headers && { headers }),
    [fc.toStringMethod]() {
      const shown = bytes.subarray(0, 300).toString("latin1");
      const sent = headers ? ` with headers ${JSON.stringify(headers)}` : "";
      return `${kind}(${bytes.length} bytes): ${JSON.stringify(shown)}${bytes.length > 300 ? "…" : ""}${sent}`;
    },
  } as Frame;
}

/** Origins a DNS-rebinding page or another site would send: each must get 403. */
export const FOREIGN_ORIGINS = [
  "http://evil.example",
  "http://localhost.evil.example",
  "http://127.0.0.1.nip.io",
  "https://attacker.test:443",
  "http://[::2]:80",
  "null",
  "file://",
];

/** HTTP headers a hostile client would vary; most frames go with none. */
const hostileHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        "mcp-protocol-version": fc.constantFrom(
          "2024-11-05",
          "2025-03-26",
          "2025-06-18",
          "2026-07-28",
          "1999-01-01",
          "",
        ),
        "mcp-session-id": fc.oneof(fc.constant(""), fc.stringMatching(/^[\x21-\x7e]{1,60}$/)),
        "content-type": fc.constantFrom("text/plain", "application/json; charset=utf-8", "multipart/form-data", ""),
        accept: fc.constantFrom("application/json", "text/event-stream", "*/*", "text/html", ""),
        origin: fc.constantFrom(...FOREIGN_ORIGINS, "http://localhost:1234", "http://127.0.0.1"),
        "mcp-method": fc.oneof(fc.constantFrom("tools/call", "ping"), fc.stringMatching(/^[\x21-\x7e]{0,20}$/)),
        "mcp-name": fc.stringMatching(/^[\x21-\x7e]{0,20}$/),
      },
      { requiredKeys: [] },
    ),
  },
);

/** The id prefix of the valid requests interleaved with the noise: noise never uses it. */
export const VALID_PREFIX = "valid:";

const METHODS = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "server/discover",
  "subscriptions/listen",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "sampling/createMessage",
];

const noiseString = fc.string({ maxLength: 40 }).filter((s) => !s.startsWith(VALID_PREFIX));
const noiseId = fc.oneof(fc.integer(), noiseString, fc.constant(null));
const wrongValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  noiseString,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(noiseString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);
const method = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: noiseString });
const params = fc.oneof(
  fc.dictionary(noiseString, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
  fc.record(
    {
      name: fc.oneof(fc.constant("echo"), noiseString, wrongValue),
      arguments: fc.oneof(fc.record({ text: fc.oneof(noiseString, wrongValue) }), wrongValue),
      uri: fc.oneof(fc.constantFrom("file:///etc/passwd", "../../x", "mcp://x"), noiseString),
      cursor: fc.oneof(noiseString, wrongValue),
      level: fc.oneof(fc.constantFrom("debug", "emergency"), wrongValue),
      requestId: noiseId,
      progressToken: noiseId,
      protocolVersion: fc.oneof(fc.constantFrom("2025-11-25", "2026-07-28", "1999-01-01"), wrongValue),
      _meta: fc.oneof(
        fc.record({
          "io.modelcontextprotocol/protocolVersion": fc.oneof(fc.constantFrom("2026-07-28", "2030-01-01"), wrongValue),
          "io.modelcontextprotocol/clientInfo": fc.oneof(fc.constant({ name: "x", version: "1" }), wrongValue),
          "io.modelcontextprotocol/clientCapabilities": fc.oneof(fc.constant({}), wrongValue),
        }),
        wrongValue,
      ),
    },
    { requiredKeys: [] },
  ),
  wrongValue,
);

/** A message that is well-formed JSON-RPC or nearly so. */
export const message: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0"), id: noiseId, method, params }, { requiredKeys: ["jsonrpc", "method"] }),
  // A response nobody asked for.
  fc.record({ jsonrpc: fc.constant("2.0"), id: noiseId, result: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: noiseId,
    error: fc.record({ code: fc.integer(), message: noiseString }),
  }),
);

/** A call of the server's own tool with hostile arguments: what its validation must stop. */
const toolCall = fc
  .record({
    id: noiseId,
    name: fc.oneof({ weight: 4, arbitrary: fc.constant("echo") }, { weight: 1, arbitrary: noiseString }),
    arguments: fc.oneof(
      fc.record({ text: fc.oneof(wrongValue, noiseString) }),
      fc.dictionary(noiseString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      wrongValue,
    ),
  })
  .map(({ id, name, arguments: args }) =>
    frame("tool-call", JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })),
  );

/** One field of a message given a wrong type (or removed). */
const wrongTypes = fc
  .tuple(message, fc.constantFrom("jsonrpc", "id", "method", "params", "result", "error"), wrongValue, fc.boolean())
  .map(([m, field, value, remove]) => {
    const copy: Record<string, unknown> = { ...m };
    if (remove) delete copy[field];
    else copy[field] = value;
    return frame(`wrong-type:${field}`, JSON.stringify(copy));
  });

const truncated = fc.tuple(message, fc.nat()).map(([m, cut]) => {
  const text = JSON.stringify(m);
  return frame("truncated", text.slice(0, cut % Math.max(1, text.length)));
});

const invalidJson = fc.oneof(
  fc.string({ maxLength: 200 }).map((s) => frame("invalid-json", s)),
  fc
    .constantFrom(
      "{",
      "[",
      "nul",
      "{'a':1}",
      '{"jsonrpc":"2.0",}',
      '{"a":}',
      "1e99999",
      '"\\ud800"',
      "[1,2",
      '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
      "\u0000",
      "\ufeff{}",
      "NaN",
      "-",
    )
    .map((s) => frame("invalid-json", s)),
);

/** Valid JSON that is not a message at all. */
const notMessages = fc.jsonValue({ maxDepth: 3 }).map((v) => frame("json-not-message", JSON.stringify(v) ?? "null"));

const batches = fc
  .array(fc.oneof(message, wrongValue), { maxLength: 12 })
  .map((b) => frame("batch", JSON.stringify(b)));

const deep = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom("[", '{"a":'), fc.boolean())
  .map(([depth, open, closed]) => {
    const close = open === "[" ? "]" : "}";
    const inner = `${open.repeat(depth)}1${closed ? close.repeat(depth) : ""}`;
    return frame(
      "deep",
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${inner}}}`,
    );
  });

const protoKeys = fc
  .tuple(
    fc.constantFrom("__proto__", "constructor", "prototype"),
    noiseId,
    fc.constantFrom("params", "arguments", "top"),
  )
  .map(([key, id, where]) => {
    const poison = `{"${key}":{"polluted":true,"jsonrpc":"1.0","text":"x"}}`;
    const text =
      where === "top"
        ? `{"${key}":{"jsonrpc":"2.0","method":"ping"},"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"ping"}`
        : where === "params"
          ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":${poison}}`
          : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"echo","arguments":${poison}}}`;
    return frame(`proto:${key}`, text);
  });

const invalidUtf8 = fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.boolean()).map(([raw, inString]) => {
  // Bytes 0x80-0xff alone, and cut multi-byte sequences: never valid UTF-8.
  const bad = Buffer.from([...raw].map((b) => b | 0x80));
  if (!inString) return frame("invalid-utf8", bad);
  return frame(
    "invalid-utf8",
    Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"echo","arguments":{"text":"'),
      bad,
      Buffer.from('"}}}'),
    ]),
  );
});

const binary = fc.uint8Array({ maxLength: 256 }).map((b) => frame("binary", Buffer.from(b)));

/** Frames of `min`..`max` bytes: one long string argument, or a line of one repeated byte. */
export function huge(min: number, max: number): fc.Arbitrary<Frame> {
  return fc
    .tuple(fc.integer({ min, max }), fc.boolean())
    .map(([size, json]) =>
      json
        ? frame(
            "huge",
            `{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"name":"echo","arguments":{"text":"${"x".repeat(size)}"}}}`,
          )
        : frame("huge", Buffer.alloc(size, 0x7b)),
    );
}

/**
 * Every kind of hostile frame, in proportions that keep a long run's volume near the one
 * issue #17 measured (about 6 KiB a frame): one in a hundred is large (16–128 KiB), one in
 * three thousand huge (1 MiB up to `hugeMax`; a long run goes past the 16 MiB limit).
 */
export function hostileFrame(hugeMax: number): fc.Arbitrary<Frame> {
  return fc
    .tuple(hostileBody(hugeMax), hostileHeaders)
    .map(([f, headers]) => (headers ? frame(f.kind, f.bytes, headers) : f));
}

function hostileBody(hugeMax: number): fc.Arbitrary<Frame> {
  return fc.oneof(
    { weight: 600, arbitrary: message.map((m) => frame("message", JSON.stringify(m))) },
    { weight: 300, arbitrary: toolCall },
    { weight: 400, arbitrary: wrongTypes },
    { weight: 300, arbitrary: truncated },
    { weight: 300, arbitrary: invalidJson },
    { weight: 200, arbitrary: notMessages },
    { weight: 200, arbitrary: batches },
    { weight: 200, arbitrary: protoKeys },
    { weight: 200, arbitrary: invalidUtf8 },
    { weight: 100, arbitrary: binary },
    { weight: 100, arbitrary: deep },
    { weight: 30, arbitrary: huge(16 * 1024, 128 * 1024) },
    { weight: 1, arbitrary: huge(1024 * 1024, Math.max(1024 * 1024, hugeMax)) },
  );
}

/** A valid request interleaved with the noise, and the answer it must get. */
export function validRequest(n: number): { message: Record<string, unknown>; text: string } {
  const text = `echo ${n} ✓ "quoted" \\ ${"é".repeat(n % 7)}`;
  return {
    text,
    message: {
      jsonrpc: "2.0",
      id: `${VALID_PREFIX}${n}`,
      method: "tools/call",
      params: { name: "echo", arguments: { text } },
    },
  };
}
