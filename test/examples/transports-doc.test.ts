import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// docs/transports.md shows each integration with code quoted from examples/ files that the
// runtime and framework tests run; a quote that drifts from its file fails here.

const ROOT = new URL("../../", import.meta.url);
const DOC = readFileSync(new URL("docs/transports.md", ROOT), "utf8");
const QUOTES = [...DOC.matchAll(/<!-- quoted from (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1] as string,
  text: m[2] as string,
}));

/** Each integration's section and the example it quotes. */
const INTEGRATIONS = {
  Node: "examples/runtimes/node-server.mjs",
  Bun: "examples/runtimes/bun-server.mjs",
  Deno: "examples/runtimes/deno-server.mjs",
  "Cloudflare Workers": "examples/runtimes/worker.mjs",
  Express: "examples/frameworks/express.mjs",
  Fastify: "examples/frameworks/fastify.mjs",
  Hono: "examples/frameworks/hono.mjs",
};

describe("docs/transports.md", () => {
  it("quotes its examples verbatim from the files the tests run", () => {
    expect(QUOTES.length).toBeGreaterThanOrEqual(Object.keys(INTEGRATIONS).length);
    for (const { file, text } of QUOTES) expect(readFileSync(new URL(file, ROOT), "utf8"), file).toContain(text);
  });

  it.each(Object.entries(INTEGRATIONS))("shows %s with a quoted example", (heading, file) => {
    const start = DOC.indexOf(`\n### ${heading}\n`);
    expect(start, `a "### ${heading}" section`).toBeGreaterThan(-1);
    const section = DOC.slice(start, DOC.indexOf("\n### ", start + 1));
    expect(section).toContain(`<!-- quoted from ${file} -->`);
  });
});
