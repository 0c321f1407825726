import { describe, expect, it } from "vitest";
import { clientKey } from "../../src/connection/client-key.js";
import { admitSession, type SessionFacts } from "../../src/endpoints/http/session-admission.js";
import type { SessionEntry } from "../../src/endpoints/http/session-entry.js";
import { SessionMap } from "../../src/endpoints/http/session-map.js";

// Which sessions make room for a new one, decided on the facts alone: the caps in total and
// per client, unused sessions given up oldest first, used ones never. The HTTP tests
// (session-caps.test.ts) show it end to end; these pin each rule.

/** Sessions by id: [client, unused, lastActivity]. */
function table(rows: Record<string, [string | undefined, boolean, number]>) {
  return new Map(
    Object.entries(rows).map(([id, [client, unused, lastActivity]]) => [id, { client, unused, lastActivity }]),
  );
}
const facts = (f: SessionFacts) => f;
const admit = (sessions: Map<string, SessionFacts>, client: string | undefined, max: number, perClient: number) =>
  admitSession(sessions, facts, client, [...sessions.values()].filter((f) => f.client === client).length, {
    maxSessions: max,
    maxSessionsPerClient: perClient,
  });

describe("admitSession", () => {
  it("evicts nothing while both caps have room, unused sessions or not", () => {
    const sessions = table({ a1: ["a", true, 1], a2: ["a", true, 2], b1: ["b", true, 3] });
    expect(admit(sessions, "a", 10, 3)).toEqual({ evict: [] });
    expect(admit(sessions, "a", 4, 10)).toEqual({ evict: [] });
    // Well under both caps: a negative shortfall must not turn into evictions.
    const three = table({ a1: ["a", true, 1], a2: ["a", true, 2], a3: ["a", true, 3] });
    expect(admit(three, "a", 5, 5)).toEqual({ evict: [] });
  });

  it("at a client's cap, gives up that client's oldest unused sessions, never another client's", () => {
    const sessions = table({
      b0: ["b", true, 0],
      a3: ["a", true, 30],
      a1: ["a", true, 10],
      a2: ["a", false, 20],
    });
    expect(admit(sessions, "a", 100, 3)).toEqual({ evict: ["a1"] });
    expect(admit(sessions, "a", 100, 2)).toEqual({ evict: ["a1", "a3"] });
    expect(admit(sessions, "a", 100, 1)).toEqual({
      refuse: "Too many sessions from this client (the limit is 1): end the ones you no longer use with DELETE",
    });
  });

  it("counts no per-client cap for a client it cannot tell apart, or when the cap is Infinity", () => {
    const sessions = table({ x1: [undefined, false, 1], x2: [undefined, false, 2] });
    expect(admit(sessions, undefined, 10, 1)).toEqual({ evict: [] });
    expect(admit(table({ a1: ["a", false, 1] }), "a", 10, Number.POSITIVE_INFINITY)).toEqual({ evict: [] });
  });

  it("at the total cap, gives up the oldest unused sessions of anyone, besides those already given up", () => {
    const sessions = table({
      b2: ["b", true, 20],
      a1: ["a", true, 10],
      c1: ["c", false, 0],
      b1: ["b", true, 15],
    });
    expect(admit(sessions, "d", 4, 10)).toEqual({ evict: ["a1"] });
    expect(admit(sessions, "d", 3, 10)).toEqual({ evict: ["a1", "b1"] });
    // Client a at its cap gives up a1; the total cap then needs one more: b1, not a1 again.
    expect(admit(sessions, "a", 3, 1)).toEqual({ evict: ["a1", "b1"] });
    expect(admit(sessions, "d", 1, 10)).toEqual({ refuse: "Too many sessions (the limit is 1)" });
  });

  it("gives up no more sessions for the total cap than it is short, when the client's own were newer", () => {
    const sessions = table({ b0: ["b", true, 0], b1: ["b", true, 1], a1: ["a", true, 10] });
    expect(admit(sessions, "a", 2, 1)).toEqual({ evict: ["a1", "b0"] });
  });
});

describe("clientKey", () => {
  it.each([
    ["alice", "10.0.0.1", "principal:alice"],
    [undefined, "10.0.0.1", "address:10.0.0.1"],
    [undefined, "::ffff:10.0.0.1", "address:10.0.0.1"],
    [undefined, "2001:db8:aa:bb:1:2:3:4", "address:2001:db8:aa:bb::/64"],
    [undefined, "2001:db8:aa:bb::9", "address:2001:db8:aa:bb::/64"],
    [undefined, "2001:db8::1", "address:2001:db8:0:0::/64"],
    [undefined, "::1", "address:0:0:0:0::/64"],
    [undefined, "fe80::1%eth0", "address:fe80:0:0:0::/64"],
    ["", undefined, "principal:"],
    [undefined, undefined, undefined],
  ])("principal %s, address %s: %s", (principal, address, key) => {
    expect(clientKey(principal, address)).toBe(key);
  });
});

describe("SessionMap: each client's sessions counted as they come and go", () => {
  const entry = (client: string | undefined) => ({ client }) as unknown as SessionEntry;

  it("counts on set, uncounts on delete and clear, and moves a replaced entry's count", () => {
    const map = new SessionMap();
    map.set("1", entry("a")).set("2", entry("a")).set("3", entry("b")).set("4", entry(undefined));
    expect([map.countOf("a"), map.countOf("b"), map.countOf(undefined)]).toEqual([2, 1, 0]);
    map.set("2", entry("b"));
    expect([map.countOf("a"), map.countOf("b")]).toEqual([1, 2]);
    expect(map.delete("1")).toBe(true);
    expect(map.delete("1")).toBe(false);
    expect([map.countOf("a"), map.countOf("b")]).toEqual([0, 2]);
    map.clear();
    expect([map.size, map.countOf("b")]).toEqual([0, 0]);
  });
});
