import { describeOptions, readOptions } from "@mcpkit/servers/options";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { flagOptions, givenValues } from "./flag-options.js";

// `mcpkit serve NAME`'s own flags are made from the server's options' table: one flag per
// option, its value named by its type, repeatable where a list is, a switch on by default
// written as --no-…, a secret never a flag; and what commander parses comes back by the
// names the factory takes.

const table = describeOptions({
  root: { type: "directories", help: "a directory", defaultText: "the current directory" },
  units: { type: "choice", choices: ["metric", "imperial"], help: "the units", default: "metric" },
  cacheTtlMs: { type: "duration", flag: "--cache-ttl", min: 0, help: "how long answers are kept", default: 600_000 },
  maxReadBytes: { type: "number", help: "the largest read", default: 1024 },
  headers: { type: "headers", flag: "--header", help: "a header" },
  tags: { type: "list", flag: "--tag", placeholder: "tag", help: "a tag" },
  allowWrite: { type: "switch", help: "allow writes" },
  outputSchemas: { type: "switch", default: true, help: "publish no outputSchema" },
  token: { type: "text", secret: true, env: ["A_TOKEN"], help: "a token" },
});

/** Parses a command line with the table's flags, as serve does, into the factory's values. */
function serve(args: string[], env: NodeJS.ProcessEnv = {}) {
  // Commander's own refusals are thrown, not printed.
  const command = new Command("serve").exitOverride().configureOutput({ writeErr: () => {} });
  for (const option of flagOptions(table).values()) command.addOption(option);
  command.parse(args, { from: "user" });
  return readOptions(table, givenValues(table, command.opts()), env);
}

describe("the flags made from a table", () => {
  it("are one per option, named from the option (or as described), with the value named by its type", () => {
    const flags = [...flagOptions(table).values()].map((o) => o.flags);
    expect(flags).toEqual([
      "--root <dir...>",
      "--units <name>",
      "--cache-ttl <duration>",
      "--max-read-bytes <n>",
      "--header <header>",
      "--tag <tag>",
      "--allow-write",
      "--no-output-schemas",
    ]);
  });

  it("say in help the default and that a flag repeats", () => {
    const help = Object.fromEntries([...flagOptions(table)].map(([name, o]) => [name, o.description]));
    expect(help.root).toBe("a directory (repeatable; default the current directory)");
    expect(help.cacheTtlMs).toBe("how long answers are kept (default 10m)");
    expect(help.maxReadBytes).toBe("the largest read (default 1024)");
    expect(help.allowWrite).toBe("allow writes");
  });

  it("make no flag of a secret: it is read from its environment variable", () => {
    expect(flagOptions(table).has("token")).toBe(false);
    expect(serve([], { A_TOKEN: "t0k" }).token).toBe("t0k");
    expect(() => serve(["--token", "t0k"])).toThrow(/unknown option '--token'/);
  });

  it("offer a choice's words only", () => {
    expect(flagOptions(table).get("units")?.argChoices).toEqual(["metric", "imperial"]);
    expect(() => serve(["--units", "kelvin"])).toThrow(/Allowed choices are metric, imperial/);
  });
});

describe("what they parse, read by the table", () => {
  it("reaches the factory under its own names, typed", () => {
    const values = serve([
      "--root",
      "a",
      "b",
      "--units",
      "imperial",
      "--cache-ttl",
      "90s",
      "--max-read-bytes",
      "2048",
      "--header",
      "X-One: 1",
      "--header",
      "X-Two: 2",
      "--tag",
      "pets",
      "--tag",
      "store",
      "--allow-write",
      "--no-output-schemas",
    ]);
    expect(values).toEqual({
      root: ["a", "b"],
      units: "imperial",
      cacheTtlMs: 90_000,
      maxReadBytes: 2048,
      headers: { "X-One": "1", "X-Two": "2" },
      tags: ["pets", "store"],
      allowWrite: true,
      outputSchemas: false,
    });
  });

  it("leaves out what was not given, so the factory's defaults apply (a switch on by default stays on)", () => {
    expect(serve([])).toEqual({ outputSchemas: true });
  });

  it("refuses a value that does not fit, naming the flag", () => {
    expect(() => serve(["--cache-ttl", "soon"])).toThrow(
      '--cache-ttl takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"',
    );
    expect(() => serve(["--max-read-bytes", "0"])).toThrow('--max-read-bytes must be a positive whole number, not "0"');
    expect(() => serve(["--header", "no colon"])).toThrow('--header takes "Name: value", not "no colon"');
  });
});
