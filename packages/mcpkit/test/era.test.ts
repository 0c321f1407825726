import { describe, expect, it } from "vitest";
import { eraOf } from "../src/protocol/era.js";

const modernMeta = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };

describe("eraOf: the one place a request's era is decided (basic/versioning §Backward Compatibility)", () => {
  it("calls a request whose _meta names a protocol version modern", () => {
    expect(eraOf(modernMeta)).toBe("modern");
    // Any named version: an unsupported one must still get the modern error (-32022).
    expect(eraOf({ _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" } })).toBe("modern");
  });

  it("calls everything else legacy, initialize included", () => {
    expect(eraOf(undefined)).toBe("legacy");
    expect(eraOf({ protocolVersion: "2025-11-25", capabilities: {} })).toBe("legacy");
    expect(eraOf({ _meta: { progressToken: 1 } })).toBe("legacy");
    expect(eraOf({ _meta: null })).toBe("legacy");
  });

  it("on HTTP, counts a version header that is not a legacy revision as modern", () => {
    expect(eraOf(undefined, "2026-07-28")).toBe("modern");
    expect(eraOf({}, " 2099-01-01 ")).toBe("modern");
    expect(eraOf({}, "2025-11-25")).toBe("legacy");
    expect(eraOf({}, " 2025-06-18 ")).toBe("legacy");
    expect(eraOf({}, null)).toBe("legacy");
    expect(eraOf(modernMeta, "2025-11-25")).toBe("modern");
  });
});
