import { describe, expect, it } from "vitest";
import { defaultTextOf, durationText, flagOf, helpOf, placeholderOf, repeats } from "./describe.js";

// What is said of an option: its flag, the name of its value, its default and its help, all
// from the one description.

describe("an option's flag", () => {
  it("is the name in kebab case, or the one described; --no-… for a switch on by default", () => {
    expect(flagOf("maxReadBytes", { type: "number", help: "" })).toBe("--max-read-bytes");
    expect(flagOf("cacheTtlMs", { type: "duration", flag: "--cache-ttl", help: "" })).toBe("--cache-ttl");
    expect(flagOf("outputSchemas", { type: "switch", default: true, help: "" })).toBe("--no-output-schemas");
    expect(flagOf("allowWrite", { type: "switch", help: "" })).toBe("--allow-write");
  });

  it("does not exist for a secret, which is read from the environment only", () => {
    expect(flagOf("token", { type: "text", secret: true, env: ["TOKEN"], help: "" })).toBeUndefined();
  });
});

describe("what help says", () => {
  it("names the value by its type, or as described", () => {
    expect(placeholderOf({ type: "number", help: "" })).toBe("n");
    expect(placeholderOf({ type: "duration", help: "" })).toBe("duration");
    expect(placeholderOf({ type: "list", placeholder: "tag", help: "" })).toBe("tag");
    expect(repeats({ type: "headers", help: "" })).toBe(true);
    expect(repeats({ type: "url", help: "" })).toBe(false);
  });

  it("says the default in the words a person would type", () => {
    expect(defaultTextOf({ type: "duration", default: 600_000, help: "" })).toBe("10m");
    expect(defaultTextOf({ type: "duration", bare: "ms", default: 5000, help: "" })).toBe("5s");
    expect(defaultTextOf({ type: "limit", default: false, help: "" })).toBe("off");
    expect(defaultTextOf({ type: "directories", defaultText: "the current directory", help: "" })).toBe(
      "the current directory",
    );
    expect(defaultTextOf({ type: "switch", default: true, help: "" })).toBeUndefined();
  });

  it("adds the default, that the flag repeats and the variable it is read from", () => {
    expect(helpOf({ type: "number", default: 100, help: "the most pages" })).toBe("the most pages (default 100)");
    expect(helpOf({ type: "list", help: "a tag" })).toBe("a tag (repeatable)");
    expect(helpOf({ type: "text", env: ["A", "B"], help: "a name" })).toBe("a name (or $A or $B)");
    expect(helpOf({ type: "text", secret: true, env: ["T"], help: "a token" })).toBe("a token");
  });
});

describe("durations, said", () => {
  it("are in the largest unit that says them exactly", () => {
    expect(durationText(3_600_000)).toBe("1h");
    expect(durationText(90_000)).toBe("90s");
    expect(durationText(1500)).toBe("1500ms");
    expect(durationText(500, "ms")).toBe("500ms");
  });
});
