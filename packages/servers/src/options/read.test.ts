import { describe, expect, it } from "vitest";
import { describeOptions, type OptionValues } from "./describe.js";
import { readOptions } from "./read.js";
import { UsageError } from "./usage-error.js";

// Values given as text (a command line, a configuration, the environment) read into the
// typed options a factory takes, each checked by its description.

const table = describeOptions({
  units: { type: "choice", choices: ["metric", "imperial"], help: "units" },
  apiUrl: { type: "url", help: "the API" },
  maxItems: { type: "number", help: "items" },
  offset: { type: "number", min: 0, help: "offset" },
  timeoutMs: { type: "duration", flag: "--timeout", bare: "ms", help: "timeout" },
  ttlMs: { type: "duration", flag: "--ttl", min: 0, help: "ttl" },
  catalog: { type: "limit", help: "catalog" },
  verbose: { type: "switch", env: ["APP_VERBOSE"], help: "verbose" },
  tags: { type: "list", flag: "--tag", help: "tags" },
  env: { type: "variables", help: "variables" },
  token: { type: "text", secret: true, env: ["APP_TOKEN", "ALT_TOKEN"], help: "token" },
});

describe("reading options", () => {
  it("converts each value to its option's type", () => {
    const values: OptionValues<typeof table> = readOptions(
      table,
      {
        units: "imperial",
        apiUrl: "https://api.example.com",
        maxItems: "10",
        offset: "0",
        timeoutMs: "2500",
        ttlMs: "0",
        catalog: "off",
        verbose: "yes",
        tags: ["a", "b"],
        env: ["A=1", "HOME"],
      },
      { HOME: "/home/ada" },
    );
    expect(values).toEqual({
      units: "imperial",
      apiUrl: "https://api.example.com",
      maxItems: 10,
      offset: 0,
      timeoutMs: 2500,
      ttlMs: 0,
      catalog: false,
      verbose: true,
      tags: ["a", "b"],
      env: { A: "1", HOME: "/home/ada" },
    });
    expect(readOptions(table, { catalog: "50", tags: "one" }, {})).toEqual({ catalog: 50, tags: ["one"] });
  });

  it("leaves out what was not given", () => {
    expect(readOptions(table, {}, {})).toEqual({});
  });

  it("reads an option not given from its environment variables, the first set winning", () => {
    expect(readOptions(table, {}, { ALT_TOKEN: "alt", APP_VERBOSE: "1" })).toEqual({ token: "alt", verbose: true });
    expect(readOptions(table, {}, { APP_TOKEN: "app", ALT_TOKEN: "alt" }).token).toBe("app");
    // What the command line gives wins over the environment.
    expect(readOptions(table, { verbose: false }, { APP_VERBOSE: "1" }).verbose).toBe(false);
  });

  it("refuses a value that does not fit with a usage error naming the flag, or the variable it came from", () => {
    const refused =
      (given: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
      () =>
        readOptions(table, given, env);
    expect(refused({ units: "kelvin" })).toThrow(new UsageError('--units takes metric or imperial, not "kelvin"'));
    expect(refused({ apiUrl: "ftp://x" })).toThrow('--api-url must be an http(s) URL, not "ftp://x"');
    expect(refused({ maxItems: "0" })).toThrow('--max-items must be a positive whole number, not "0"');
    expect(refused({ offset: "-1" })).toThrow('--offset must be a whole number of at least 0, not "-1"');
    expect(refused({ timeoutMs: "soon" })).toThrow(/--timeout takes a duration such as 5000 \(milliseconds\)/);
    expect(refused({ ttlMs: "-5" })).toThrow(/--ttl takes a duration/);
    expect(refused({ catalog: "many" })).toThrow('--catalog must be a whole number of at least 0, not "many"');
    expect(refused({}, { APP_VERBOSE: "perhaps" })).toThrow('$APP_VERBOSE is on or off (true or false), not "perhaps"');
    expect(refused({ env: ["=x"] })).toThrow('--env takes KEY=VALUE or KEY, not "=x"');
  });
});
