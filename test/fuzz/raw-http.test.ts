import { connect } from "node:net";
import fc from "fast-check";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG, SEED, TIMEOUT_MS } from "./runner.js";

// A hostile network peer below JSON-RPC: malformed request lines and headers, conflicting
// Content-Length and Transfer-Encoding (request smuggling), bare LF, NUL bytes, oversized
// header lines, bodies that stop early. The server must answer each with a 4xx it can read
// or close the connection, never a 5xx, and keep serving.

let listening: Listening;
let port = 0;
beforeAll(async () => {
  const server = createServer({ name: "raw", version: "1", onError: () => {} });
  const handler = createStreamableHttpHandler(server, { maxBodyBytes: 64 * 1024 });
  listening = await listen(handler, { headersTimeoutMs: 1000, requestTimeoutMs: 2000, lingerMs: 500 });
  port = Number(listening.url.port);
});
afterAll(() => listening.close());

const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{0,12}$/);
const junk = fc.string({ maxLength: 30, unit: "binary" });
const body =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';

const requestLine = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom("POST /mcp HTTP/1.1", "GET /mcp HTTP/1.1", "DELETE /mcp HTTP/1.1", "POST /mcp HTTP/1.0"),
  },
  fc
    .tuple(
      token,
      fc.constantFrom("/mcp", "*", "//", "/mcp?x=%zz", "http://evil/mcp", ""),
      fc.constantFrom("HTTP/1.1", "HTTP/2.0", "HTTP/9", ""),
    )
    .map(([m, p, v]) => `${m} ${p} ${v}`),
  junk,
);
const header = fc.oneof(
  fc.constantFrom(
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    "Content-Length: 5",
    "Content-Length: 999999999",
    "Content-Length: -1",
    "Content-Length: 5, 6",
    "Transfer-Encoding: chunked",
    "Transfer-Encoding: gzip, chunked",
    "Transfer-Encoding: xchunked",
    "Expect: 100-continue",
    "Connection: keep-alive",
    "Mcp-Session-Id: x",
    "Origin: http://evil.example",
    " folded: continuation",
    "Bad Header: space in name",
    "X-Nul: a\u0000b",
  ),
  fc.tuple(token, junk).map(([name, value]) => `${name}: ${value}`),
  fc.integer({ min: 8 * 1024, max: 40 * 1024 }).map((n) => `X-Long: ${"a".repeat(n)}`),
);
/** Mostly the headers a real MCP POST carries, so that requests get past the parser's first checks. */
const usual = fc.subarray([
  "Host: 127.0.0.1",
  "Content-Type: application/json",
  "Accept: application/json, text/event-stream",
]);
const rawRequest = fc
  .tuple(
    requestLine,
    fc.tuple(usual, fc.array(header, { maxLength: 6 })).map(([a, b]) => [...a, ...b]),
    fc.constantFrom("\r\n", "\r\n", "\r\n", "\n", "\r"),
    fc.constantFrom("", body, body.slice(0, 40), "0\r\n\r\n", "zz\r\n"),
    fc.constantFrom("length", "chunked", "none"),
  )
  .map(([line, headers, eol, payload, framing]) => {
    const framed =
      framing === "length"
        ? [...headers, `Content-Length: ${Buffer.byteLength(payload)}`]
        : framing === "chunked"
          ? [...headers, "Transfer-Encoding: chunked"]
          : headers;
    const sent =
      framing === "chunked" && payload !== ""
        ? `${Buffer.byteLength(payload).toString(16)}\r\n${payload}\r\n0\r\n\r\n`
        : payload;
    return `${line}${eol}${framed.map((h) => `${h}${eol}`).join("")}${eol}${sent}`;
  });

/** Sends `bytes` on a fresh connection; resolves with what came back once the server closes or goes quiet. */
function exchange(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes, "latin1"));
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => {
      text += d;
    });
    socket.on("error", () => {});
    // Bounded by the server's own timeouts: headers 1 s, request 2 s.
    const timer = setTimeout(() => socket.destroy(), 6000);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

async function stillServes(): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
  await response.text();
  return response.status;
}

describe("fuzz: raw HTTP/1.1 from a hostile peer", () => {
  it(
    "answers malformed and smuggling requests with a 4xx or a close, never a 5xx, and keeps serving",
    async () => {
      const statuses: Record<string, number> = {};
      await fc.assert(
        fc.asyncProperty(fc.array(rawRequest, { minLength: 1, maxLength: 4 }), async (requests) => {
          const answers = await Promise.all(requests.map(exchange));
          for (const answer of answers) {
            for (const match of answer.matchAll(/HTTP\/1\.1 (\d{3})/g)) {
              const status = match[1] as string;
              statuses[status] = (statuses[status] ?? 0) + 1;
              if (Number(status) >= 500) throw new Error(`HTTP ${status}: ${answer.slice(0, 300)}`);
            }
          }
          if ((await stillServes()) !== 200) throw new Error("the server stopped serving");
        }),
        { seed: SEED, numRuns: LONG ? 2000 : 60 },
      );
      expect(Object.keys(statuses).length).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
