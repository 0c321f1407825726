import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { requestDigest } from "../../src/server/eras/modern/request-digest.js";
import {
  makeKey,
  openRequestState,
  RequestStateError,
  sealRequestState,
} from "../../src/server/eras/modern/request-state.js";
import { createServer } from "../../src/server/index.js";
import { principalOf } from "../../src/server/principal.js";
import { modernPeer } from "./helpers.js";

// The signed requestState of a 2026-07-28 multi round-trip request, piece by piece: the
// key it is signed with, what its signature covers, when it expires, what request and
// caller it is bound to. Each test fails when the check it names is taken out
// (docs/mutation-testing.md).

// Made directly, not by makeKey: a test file whose top level throws has no test to fail,
// so a broken makeKey would pass unnoticed by the mutation run (docs/mutation-testing.md).
const KEY = Buffer.alloc(32, "k");
const sig = (body: string) => createHmac("sha256", KEY).update(body).digest("base64url");
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const fresh = (extra: Record<string, unknown> = {}) => ({
  request: "tools/call:x",
  answers: { a: 1 },
  expires: 1_000,
  ...extra,
});

/** The message of the RequestStateError `open` throws, or "opened". */
function refusal(open: () => unknown): string {
  try {
    open();
    return "opened";
  } catch (error) {
    expect(error).toBeInstanceOf(RequestStateError);
    return (error as Error).message;
  }
}

describe("requestStateKey", () => {
  it("is used as given, as text or bytes, so replicas that share it open each other's state", () => {
    expect(makeKey("k".repeat(32))).toEqual(Buffer.alloc(32, "k"));
    expect(makeKey(new Uint8Array(40).fill(7))).toEqual(Buffer.alloc(40, 7));
    expect(makeKey("é".repeat(16))).toHaveLength(32); // counted in UTF-8 bytes, not characters
  });

  it("is refused when shorter than 32 bytes, and random when not given", () => {
    expect(() => makeKey("k".repeat(31))).toThrow(new RangeError("requestStateKey must be at least 32 bytes"));
    expect(() => makeKey(new Uint8Array(31))).toThrow(RangeError);
    expect(makeKey(new Uint8Array(32))).toHaveLength(32);
    const a = makeKey(undefined);
    expect(a).toHaveLength(32);
    expect(a).not.toEqual(makeKey(undefined));
  });

  it("lets one server finish a request another server with the same key began, and no server with another key", async () => {
    const tool = (s: ReturnType<typeof createServer>) =>
      s.tool("ask", {}, async (_a, ctx) => {
        const r = await ctx.elicit({ key: "q", message: "?", schema: { type: "object", properties: {} } });
        return r.action;
      });
    const make = (key: string) => {
      const s = createServer({ name: "replica", version: "1", requestStateKey: key });
      tool(s);
      return s;
    };
    const caps = { elicitation: {} };
    const first = (await (await modernPeer(make("r".repeat(32)))).call("tools/call", { name: "ask" }, caps)).result;
    const retry = {
      name: "ask",
      inputResponses: { q: { action: "decline" } },
      requestState: first?.requestState as string,
    };
    const other = await (await modernPeer(make("r".repeat(32)))).call("tools/call", retry, caps);
    expect(other.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "decline" }] });
    const stranger = await (await modernPeer(make("s".repeat(32)))).call("tools/call", retry, caps);
    expect(stranger.error).toMatchObject({ code: -32602, message: expect.stringContaining("integrity") });
  });
});

describe("openRequestState", () => {
  const expect1 = { request: "tools/call:x", now: 500 };

  it("opens what sealRequestState sealed, as body.signature", () => {
    const token = sealRequestState(fresh(), KEY);
    const body = b64(JSON.stringify(fresh()));
    expect(token).toBe(`${body}.${sig(body)}`);
    expect(openRequestState(token, KEY, expect1)).toEqual(fresh());
  });

  it("refuses a signature cut short or lengthened as failing its integrity check, not as a crash", () => {
    const token = sealRequestState(fresh(), KEY);
    for (const changed of [token.slice(0, -4), `${token}AAAA`, `${token.split(".")[0]}.`]) {
      expect(refusal(() => openRequestState(changed, KEY, expect1))).toMatch(/integrity check/);
    }
  });

  it("refuses a token without a body, even one carrying the signature of the empty body", () => {
    expect(refusal(() => openRequestState(`.${sig("")}`, KEY, expect1))).toMatch(/integrity check/);
    expect(refusal(() => openRequestState(sig(""), KEY, expect1))).toMatch(/integrity check/);
  });

  it("refuses a signed body that is not JSON as unreadable", () => {
    const body = b64("{not json");
    expect(refusal(() => openRequestState(`${body}.${sig(body)}`, KEY, expect1))).toBe("requestState is not readable");
  });

  it("is good until its expiry, to the millisecond, and not after", () => {
    const token = sealRequestState(fresh(), KEY);
    expect(openRequestState(token, KEY, { ...expect1, now: 1_000 }).answers).toEqual({ a: 1 });
    expect(refusal(() => openRequestState(token, KEY, { ...expect1, now: 1_001 }))).toMatch(/expired/);
  });

  it("is bound to its request and its caller: none, or the one named", () => {
    const anyone = sealRequestState(fresh(), KEY);
    const alice = sealRequestState(fresh({ principal: "alice" }), KEY);
    expect(refusal(() => openRequestState(anyone, KEY, { ...expect1, request: "tools/call:y" }))).toMatch(
      /different request/,
    );
    expect(refusal(() => openRequestState(anyone, KEY, { ...expect1, principal: "alice" }))).toMatch(
      /different caller/,
    );
    expect(refusal(() => openRequestState(alice, KEY, expect1))).toMatch(/different caller/);
    expect(refusal(() => openRequestState(alice, KEY, { ...expect1, principal: "bob" }))).toMatch(/different caller/);
    expect(openRequestState(alice, KEY, { ...expect1, principal: "alice" }).principal).toBe("alice");
  });
});

describe("requestDigest", () => {
  const sha = (text: string) => createHash("sha256").update(text).digest("base64url");

  it("is the method and the SHA-256 of the parameters as JSON with sorted keys, without _meta and the round's inputs", () => {
    // Pinned: replicas of different versions that share a key must digest a request alike.
    const params = {
      name: "ship",
      arguments: { to: "Lyon", box: { width: 2, tags: ["a", "b"], none: undefined } },
      _meta: { progressToken: 1 },
      inputResponses: { q: {} },
      requestState: "s",
    };
    expect(requestDigest("tools/call", params)).toBe(
      `tools/call:${sha('{"arguments":{"box":{"tags":["a","b"],"width":2},"to":"Lyon"},"name":"ship"}')}`,
    );
    expect(requestDigest("prompts/get", undefined)).toBe(`prompts/get:${sha("{}")}`);
    expect(requestDigest("m", { a: [undefined, null] })).toBe(`m:${sha('{"a":[null,null]}')}`);
  });

  it("tells apart values that only a careless encoding would confuse", () => {
    const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ a: [1, 2] }, { a: [12] }],
      [{ a: ["x", "y"] }, { a: { 0: "x", 1: "y" } }],
      [
        { a: 1, b: 2 },
        { a: 2, b: 1 },
      ],
      [{ a: "1" }, { a: 1 }],
    ];
    for (const [x, y] of pairs) expect(requestDigest("m", x)).not.toBe(requestDigest("m", y));
    expect(requestDigest("m", { a: 1, b: undefined })).toBe(requestDigest("m", { a: 1 }));
  });
});

describe("principalOf", () => {
  it("is the issuer and the subject (else sub, else the client id, labelled apart), as text; undefined without one", () => {
    expect(principalOf({ issuer: "https://as", subject: "alice", sub: "x", clientId: "c" })).toBe(
      "user:https%3A%2F%2Fas:alice",
    );
    expect(principalOf({ sub: 42, clientId: "c" })).toBe("user::42");
    expect(principalOf({ clientId: "c" })).toBe("client::c");
    for (const none of [undefined, null, "alice", 7, {}, { scopes: ["a"] }]) expect(principalOf(none)).toBeUndefined();
  });
});
