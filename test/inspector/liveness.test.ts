import { ErrorCode, McpError } from "mcpkit";
import { describe, expect, it } from "vitest";
import {
  type Clock,
  type Liveness,
  lostReason,
  serverAnswered,
  watchLiveness,
} from "../../packages/cli/src/inspector/liveness.js";
import { httpError, networkError, streamLost } from "../../packages/mcpkit/src/transports/http/client/http-errors.js";

// How the inspector tells that an HTTP server went away: pings while a page is open, one
// at a time, the interval after the last answer, at once when a stream of the server
// ended; an error the server sends back is an answer, a refused connection or a timeout
// is not. On a fake clock: each test says exactly when a ping goes out.

/** Timers that run only when the test moves the time on. */
function fakeClock(): Clock & { advance(ms: number): Promise<void>; pending(): number } {
  let now = 1_000_000;
  let ids = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      timers.set(++ids, { at: now + ms, run });
      return ids;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: () => timers.size,
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
        await settled();
      }
      now = until;
      await settled();
    },
  };
}

/** Lets the promise callbacks queued so far run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A server under the test's control: each ping waits until the test answers it. */
function watched(intervalMs = 5000) {
  const clock = fakeClock();
  const out: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const answered: number[] = [];
  const lost: unknown[] = [];
  const liveness: Liveness = watchLiveness({
    intervalMs,
    clock,
    ping: () =>
      new Promise<void>((resolve, reject) => {
        out.push({ resolve, reject });
      }),
    onAnswer: () => answered.push(clock.now()),
    onLost: (error) => lost.push(error),
  });
  return {
    clock,
    liveness,
    answered,
    lost,
    /** How many pings were sent. */
    sent: () => out.length,
    async answer() {
      out.at(-1)?.resolve();
      await settled();
    },
    async fail(error: unknown) {
      out.at(-1)?.reject(error);
      await settled();
    },
  };
}

const refused = () =>
  McpError.fromObject(
    networkError("POST http://127.0.0.1:9/mcp", new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })),
  );
const timedOut = () =>
  new McpError(ErrorCode.RequestTimeout, "Request ping timed out after 10000 ms", { timeout: 10_000 });

describe("pinging an HTTP server", () => {
  it("pings only while a page is open, each ping the interval after the last answer", async () => {
    const s = watched(5000);
    await s.clock.advance(60_000);
    expect(s.sent()).toBe(0);
    expect(s.clock.pending()).toBe(0);

    s.liveness.watch(true);
    // The connection was made a minute ago: the page gets a ping at once.
    await s.clock.advance(0);
    expect(s.sent()).toBe(1);
    await s.clock.advance(4000);
    await s.answer();
    expect(s.answered).toHaveLength(1);
    await s.clock.advance(4999);
    expect(s.sent()).toBe(1);
    await s.clock.advance(1);
    expect(s.sent()).toBe(2);
    await s.answer();

    s.liveness.watch(false);
    expect(s.clock.pending()).toBe(0);
    await s.clock.advance(60_000);
    expect(s.sent()).toBe(2);
    expect(s.lost).toEqual([]);
  });

  it("waits the rest of the interval for a page opened soon after the last answer (or the connection)", async () => {
    const s = watched(5000);
    s.liveness.watch(true);
    await s.clock.advance(2000);
    expect(s.sent()).toBe(0);
    s.liveness.watch(false);
    s.liveness.watch(true);
    await s.clock.advance(2999);
    expect(s.sent()).toBe(0);
    await s.clock.advance(1);
    expect(s.sent()).toBe(1);
  });

  it("pings at once when a stream of the server ended, one ping out at a time", async () => {
    const s = watched(5000);
    s.liveness.check();
    expect(s.sent()).toBe(0);
    s.liveness.watch(true);
    s.liveness.check();
    expect(s.sent()).toBe(1);
    s.liveness.check();
    expect(s.sent()).toBe(1);
    // While a ping is out, no other is due.
    expect(s.clock.pending()).toBe(0);
    await s.answer();
    expect(s.clock.pending()).toBe(1);
  });

  it("takes an error the server sent back as an answer: the server is there", async () => {
    const s = watched();
    s.liveness.watch(true);
    s.liveness.check();
    await s.fail(new McpError(ErrorCode.MethodNotFound, "Method not found: ping"));
    s.liveness.check();
    // A JSON-RPC error in an HTTP error's body, as the transport hands it up.
    await s.fail(
      McpError.fromObject(
        httpError(
          "POST http://127.0.0.1:9/mcp",
          new Response(null, { status: 400 }),
          '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"No ping here"}}',
        ),
      ),
    );
    expect(s.answered).toHaveLength(2);
    expect(s.lost).toEqual([]);
  });

  it("says the server is gone when a ping is refused by the network or times out, and why", async () => {
    const s = watched();
    s.liveness.watch(true);
    s.liveness.check();
    await s.fail(refused());
    expect(s.answered).toEqual([]);
    expect(s.lost).toHaveLength(1);
    expect(lostReason(s.lost[0])).toBe("The server stopped answering (connection refused)");
    // Pinging goes on until the owner stops it (the inspector does, as it disconnects).
    expect(s.clock.pending()).toBe(1);
    s.liveness.check();
    await s.fail(timedOut());
    expect(lostReason(s.lost[1])).toBe("The server stopped answering (no answer to a ping in 10 s)");
  });

  it("stops: no timer left, and a ping still out is forgotten", async () => {
    const s = watched();
    s.liveness.watch(true);
    s.liveness.check();
    s.liveness.stop();
    expect(s.clock.pending()).toBe(0);
    await s.fail(refused());
    expect(s.lost).toEqual([]);
    s.liveness.watch(true);
    s.liveness.check();
    await s.clock.advance(60_000);
    expect(s.sent()).toBe(1);
    expect(s.clock.pending()).toBe(0);
  });
});

describe("whether a failed ping was answered", () => {
  it("is not, for what the HTTP transport makes up when no answer came", () => {
    expect(serverAnswered(refused())).toBe(false);
    expect(serverAnswered(timedOut())).toBe(false);
    expect(serverAnswered(McpError.fromObject(streamLost()))).toBe(false);
    // A proxy's 502 whose server is gone: no JSON-RPC error in the body.
    const badGateway = httpError("POST http://127.0.0.1:9/mcp", new Response(null, { status: 502 }), "Bad Gateway");
    expect(serverAnswered(McpError.fromObject(badGateway))).toBe(false);
    expect(serverAnswered(new Error("Not connected"))).toBe(false);
  });

  it("is, for the server's own errors, its own -32000 and -32001 included", () => {
    expect(serverAnswered(new McpError(ErrorCode.InternalError, "boom"))).toBe(true);
    expect(serverAnswered(new McpError(ErrorCode.ConnectionClosed, "the server's own error"))).toBe(true);
    expect(serverAnswered(new McpError(ErrorCode.RequestTimeout, "the server's own timeout"))).toBe(true);
  });

  it("says a failure without a known network code as it came", () => {
    const error = McpError.fromObject(streamLost());
    expect(lostReason(error)).toBe(`The server stopped answering (${error.message})`);
  });
});
