import { describe, expect, it } from "vitest";
import type { Diagnosis } from "./contract/events.js";
import { Doctor, doctorTimeout } from "./diagnosis.js";
import type { Target } from "./target.js";

// The doctor as the inspector runs it: each step told as it is decided, one diagnosis at
// a time, and a diagnosis the connection moved on from left unsaid.

/** Nothing listens on port 9: the doctor's first step fails at once. */
const unreachable: Target = { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} };

function doctor() {
  const told: Diagnosis[] = [];
  const d: Doctor = new Doctor(() => told.push(d.diagnosis as Diagnosis));
  return { d, told };
}

describe("the inspector's doctor", () => {
  it("tells each step as it comes, then the verdict", async () => {
    const { d, told } = doctor();
    const done = await d.run(unreachable, 2000);
    expect(told[0]).toEqual({ running: true, checks: [] });
    expect(told.at(-2)).toMatchObject({ running: true, checks: [{ id: "reachable", ok: false }] });
    expect(told.at(-1)).toEqual(done);
    expect(done).toMatchObject({ running: false, ok: false });
  });

  it("runs one diagnosis at a time: one replaced before it began never starts, and a cleared one goes unsaid", async () => {
    const { d, told } = doctor();
    const first = d.run(unreachable, 2000);
    const second = d.run(unreachable, 2000);
    expect(await first).toBeUndefined();
    expect((await second)?.checks.map((c) => c.id)).toEqual(["reachable"]);
    // Two starts told, one diagnosis: the first never reached the server.
    expect(told.filter((t) => t.checks.length === 0)).toHaveLength(2);
    expect(told.filter((t) => !t.running)).toHaveLength(1);

    const cleared = d.run(unreachable, 2000);
    d.clear();
    const count = told.length;
    expect(await cleared).toBeUndefined();
    expect(told).toHaveLength(count);
    expect(d.diagnosis).toBeUndefined();
  });

  it("takes the inspector's request timeout as its step limit when it is shorter than the doctor's 10 s", () => {
    expect(doctorTimeout(300_000)).toBe(10_000);
    expect(doctorTimeout(2000)).toBe(2000);
    expect(doctorTimeout(0)).toBe(10_000);
  });
});
