import { describe, expect, it } from "vitest";
import { parseEnv, parseHeaders } from "./headers.js";

// The repeatable "Name: value" and KEY=VALUE values of the connection flags.

describe("headers", () => {
  it("are read from Name: value, trimmed, the last of a name winning", () => {
    expect(parseHeaders(["Authorization: Bearer x", "X-A:1", "X-A: 2 "])).toEqual({
      Authorization: "Bearer x",
      "X-A": "2",
    });
    expect(parseHeaders(["X-Url: https://example.com:8080/"])).toEqual({ "X-Url": "https://example.com:8080/" });
  });

  it("without a name are refused, naming the flag", () => {
    expect(() => parseHeaders([": value"])).toThrow('--header takes "Name: value", not ": value"');
    expect(() => parseHeaders(["novalue"], "-H")).toThrow('-H takes "Name: value", not "novalue"');
  });
});

describe("variables", () => {
  it("are set by KEY=VALUE, or passed on from ours by KEY alone (left out when we have none)", () => {
    expect(parseEnv(["A=1", "B=x=y", "HOME", "UNSET"], { HOME: "/home/ada" })).toEqual({
      A: "1",
      B: "x=y",
      HOME: "/home/ada",
    });
  });

  it("without a name are refused", () => {
    expect(() => parseEnv(["=1"], {})).toThrow('--env takes KEY=VALUE or KEY, not "=1"');
  });
});
