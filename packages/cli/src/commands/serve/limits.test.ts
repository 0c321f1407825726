import { describe, expect, it } from "vitest";
import { httpLimits, portNumber } from "./limits.js";

// The HTTP endpoint's limits on serve's command line, checked before anything starts.

describe("--port", () => {
  it("takes 0 (any free port) to 65535", () => {
    expect(portNumber("0")).toBe(0);
    expect(portNumber("3000")).toBe(3000);
    expect(portNumber("65535")).toBe(65535);
  });

  it("refuses anything else, saying what it takes", () => {
    for (const value of ["65536", "-1", "80.5", "http", " 80", ""])
      expect(() => portNumber(value), value).toThrow(
        `--port takes a port number from 0 to 65535 (0: any free port), not "${value}"`,
      );
  });
});

describe("--max-sessions and --idle-timeout", () => {
  it("are read as a positive number and a duration (seconds when bare)", () => {
    expect(httpLimits({ port: "0", maxSessions: "50", idleTimeout: "90" })).toEqual({
      maxSessions: 50,
      idleTimeoutMs: 90_000,
    });
    expect(httpLimits({ port: "0", idleTimeout: "15m" })).toEqual({ idleTimeoutMs: 900_000 });
    expect(httpLimits({})).toEqual({});
  });

  it("apply to Streamable HTTP only", () => {
    expect(() => httpLimits({ maxSessions: "5" })).toThrow(
      "--max-sessions applies to Streamable HTTP only: add --port",
    );
    expect(() => httpLimits({ idleTimeout: "1m" })).toThrow(
      "--idle-timeout applies to Streamable HTTP only: add --port",
    );
  });

  it("refuse values that do not fit, naming the flag", () => {
    expect(() => httpLimits({ port: "0", maxSessions: "0" })).toThrow(
      '--max-sessions must be a positive whole number, not "0"',
    );
    expect(() => httpLimits({ port: "0", idleTimeout: "later" })).toThrow(/--idle-timeout takes a duration/);
  });
});
