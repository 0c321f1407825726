import { describe, expect, it } from "vitest";
import { DOCS, docs, optionsTable } from "../../scripts/options-docs.mjs";

// The option tables of the built-in servers' docs are made from the servers' own option
// descriptions (the ones `mcpkit serve` makes its flags from): a doc that says another
// default, or misses an option, fails here until `npm run docs:options` writes it again.

describe("the docs' option tables", () => {
  it("are the servers' descriptions, as `npm run docs:options` writes them", async () => {
    const stale = (await docs()).filter((d) => d.changed).map((d) => d.doc);
    expect(stale, "run `npm run docs:options`").toEqual([]);
  });

  it("cover every built-in server", () => {
    expect(Object.keys(DOCS).sort()).toEqual(["everything", "github", "openapi", "proxy", "weather", "workspace"]);
  });

  it("say each option's flag, its name in code, its meaning and its default", () => {
    const table = optionsTable({
      cacheTtlMs: {
        type: "duration",
        flag: "--cache-ttl",
        min: 0,
        help: "how long answers are kept",
        default: 600_000,
      },
      token: { type: "text", secret: true, env: ["A_TOKEN"], help: "a token" },
    });
    expect(table.split("\n")).toEqual([
      "| Flag | Option | Meaning |",
      "| --- | --- | --- |",
      "| `--cache-ttl DURATION` | `cacheTtlMs` | How long answers are kept. Default: `10m` (`600000` ms in code). |",
      "| `A_TOKEN` | `token` | A token. From the environment only, never a flag. |",
    ]);
  });
});
