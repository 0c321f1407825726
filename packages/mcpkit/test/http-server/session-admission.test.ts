import { describe, expect, it } from "vitest";
import { admitSession, clientKey, type SessionFacts } from "../../src/endpoints/http/session-admission.js";

const facts = (client: string, unused: boolean, lastActivity: number): SessionFacts => ({
  client,
  unused,
  lastActivity,
});
const table = (entries: [string, SessionFacts][]) => new Map(entries);
const same = (f: SessionFacts) => f;

describe("admitSession", () => {
  it("admits without evicting below both caps", () => {
    const sessions = table([["a1", facts("A", true, 1)]]);
    expect(admitSession(sessions, same, "A", { maxSessions: 3, maxSessionsPerClient: 2 })).toEqual({ evict: [] });
  });

  it("at a client's cap, ends that client's oldest unused session, never another client's", () => {
    const sessions = table([
      ["b1", facts("B", true, 0)],
      ["a1", facts("A", true, 5)],
      ["a2", facts("A", true, 3)],
    ]);
    expect(admitSession(sessions, same, "A", { maxSessions: 10, maxSessionsPerClient: 2 })).toEqual({
      evict: ["a2"],
    });
  });

  it("refuses a client whose sessions are all in use", () => {
    const sessions = table([
      ["a1", facts("A", false, 1)],
      ["a2", facts("A", false, 2)],
    ]);
    const verdict = admitSession(sessions, same, "A", { maxSessions: 10, maxSessionsPerClient: 2 });
    expect(verdict).toEqual({ refuse: expect.stringContaining("from this client (the limit is 2)") });
  });

  it("at the total cap, ends the oldest unused session of anyone, and refuses when none is unused", () => {
    const sessions = table([
      ["a1", facts("A", false, 0)],
      ["b1", facts("B", true, 4)],
      ["c1", facts("C", true, 2)],
    ]);
    const limits = { maxSessions: 3, maxSessionsPerClient: 3 };
    expect(admitSession(sessions, same, "D", limits)).toEqual({ evict: ["c1"] });
    const busy = table([...sessions].map(([id, f]) => [id, { ...f, unused: false }]));
    expect(admitSession(busy, same, "D", limits)).toEqual({ refuse: "Too many sessions (the limit is 3)" });
  });

  it("applies only the total cap to a client it cannot tell apart", () => {
    const sessions = table([["x", facts("A", false, 0)]]);
    expect(admitSession(sessions, same, undefined, { maxSessions: 2, maxSessionsPerClient: 1 })).toEqual({
      evict: [],
    });
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
    [undefined, undefined, undefined],
  ])("principal %s, address %s: %s", (principal, address, key) => {
    expect(clientKey(principal, address)).toBe(key);
  });
});
