import { describe, expect, it } from "vitest";
import { durationMs } from "./duration.js";

// Every duration flag of mcpkit reads the same units (500ms, 90s, 15m, 2h). A bare number
// keeps the unit the flag has always had: seconds for most, milliseconds for the timeouts
// named in ms (--query-timeout, --provider-timeout, --api-timeout).

describe("a duration flag", () => {
  it("reads a bare number as seconds, and any number with a unit as that unit", () => {
    expect(durationMs("90", "--idle-timeout")).toBe(90_000);
    expect(durationMs("500ms", "--idle-timeout")).toBe(500);
    expect(durationMs("15m", "--idle-timeout")).toBe(900_000);
    expect(durationMs("2h", "--idle-timeout")).toBe(7_200_000);
  });

  it("reads a bare number as milliseconds for a flag whose unit has been ms, and takes units there too", () => {
    expect(durationMs("5000", "--query-timeout", { bare: "ms" })).toBe(5000);
    expect(durationMs("5s", "--query-timeout", { bare: "ms" })).toBe(5000);
    expect(durationMs("1m", "--provider-timeout", { bare: "ms" })).toBe(60_000);
  });

  it("takes 0 only where 0 means off", () => {
    expect(durationMs("0", "--cache-ttl", { min: 0 })).toBe(0);
    expect(durationMs("10m", "--cache-ttl", { min: 0 })).toBe(600_000);
    expect(() => durationMs("0", "--idle-timeout")).toThrow("--idle-timeout takes a duration such as 90 (seconds)");
  });

  it("says which unit a bare number is in when it refuses a value", () => {
    expect(() => durationMs("soon", "--idle-timeout")).toThrow(
      '--idle-timeout takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"',
    );
    expect(() => durationMs("3 s", "--provider-timeout", { bare: "ms" })).toThrow(
      '--provider-timeout takes a duration such as 5000 (milliseconds), 5s, 15m or 2h, not "3 s"',
    );
  });
});
