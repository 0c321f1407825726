import { describe, expect, it } from "vitest";
import { clientOptions } from "./connect.js";

describe("connection options", () => {
  it("name the revisions --protocol takes when it is given another", () => {
    expect(clientOptions({ protocol: "2025-06-18" }, {}).protocolVersion).toBe("2025-06-18");
    expect(() => clientOptions({ protocol: "2099-01-01" }, {})).toThrow(
      "--protocol 2099-01-01 is not a revision mcpkit speaks; choose one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28",
    );
  });

  it("take --timeout as a duration: a bare number in seconds, or with its unit; 0 waits forever", () => {
    expect(clientOptions({ timeout: "90" }, {}).timeoutMs).toBe(90_000);
    expect(clientOptions({ timeout: "2m" }, {}).timeoutMs).toBe(120_000);
    expect(clientOptions({ timeout: "500ms" }, {}).timeoutMs).toBe(500);
    expect(clientOptions({ timeout: "0" }, {}).timeoutMs).toBe(0);
    expect(() => clientOptions({ timeout: "soon" }, {})).toThrow(
      '--timeout takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"',
    );
  });
});
