#!/usr/bin/env node
// The option tables of the built-in servers' docs, made from the servers' own descriptions
// (@mcpkit/servers/<name>/options, built): `npm run docs:options` writes each between the
// markers <!-- options: NAME --> and <!-- /options --> of its doc; `--check` (run by
// test/docs/server-options.test.ts) says which differ. Run `npm run build` first when dist is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultTextOf, flagOf, placeholderOf, repeats } from "@mcpkit/servers/options";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Each server's options table, and the doc that shows it. */
export const DOCS = {
  workspace: { doc: "docs/workspace.md", table: "workspaceOptions" },
  weather: { doc: "docs/weather.md", table: "weatherOptions" },
  github: { doc: "docs/github.md", table: "githubOptions" },
  everything: { doc: "docs/cli.md", table: "everythingOptions" },
  proxy: { doc: "docs/composition.md", table: "proxyOptions" },
  openapi: { doc: "docs/openapi.md", table: "openapiOptions" },
};

/** @param {string} text */
const sentence = (text) => {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** A duration's default as the factory takes it, in ms. @param {import("@mcpkit/servers/options").OptionDescription} option */
const inCode = (option) =>
  option.type === "duration" && typeof option.default === "number" ? ` (\`${option.default}\` ms in code)` : "";

/**
 * One option's row: the flag (or the variables a secret is read from), the factory's name
 * for it, and what it means, with its default.
 * @param {string} name @param {import("@mcpkit/servers/options").OptionDescription} option
 */
function row(name, option) {
  const flag = flagOf(name, option);
  const value = option.type === "switch" ? "" : ` ${placeholderOf(option).toUpperCase()}${repeats(option) ? "…" : ""}`;
  const given = flag ? `\`${flag}${value}\`` : (option.env ?? []).map((v) => `\`${v}\``).join(" or ");
  const shown = defaultTextOf(option);
  const meaning = [
    sentence(option.details ?? option.help),
    ...(shown === undefined
      ? []
      : [`Default: ${option.defaultText === undefined ? `\`${shown}\`` : shown}${inCode(option)}.`]),
    ...(flag && option.env ? [`Or ${option.env.map((v) => `\`${v}\``).join(", ")}.`] : []),
    ...(option.secret ? ["From the environment only, never a flag."] : []),
  ].join(" ");
  /** @param {string} text */
  const cell = (text) => text.replaceAll("|", "\\|");
  return `| ${cell(given)} | \`${name}\` | ${cell(meaning)} |`;
}

/** A table of options as Markdown. @param {Record<string, import("@mcpkit/servers/options").OptionDescription>} table */
export function optionsTable(table) {
  return [
    "| Flag | Option | Meaning |",
    "| --- | --- | --- |",
    ...Object.entries(table).map(([name, option]) => row(name, option)),
  ].join("\n");
}

/** Each doc with its tables written in, and whether it changed. */
export async function docs() {
  /** @type {Map<string, string>} */
  const texts = new Map();
  for (const [server, { doc, table }] of Object.entries(DOCS)) {
    const options = (await import(`@mcpkit/servers/${server}/options`))[table];
    const text = texts.get(doc) ?? readFileSync(join(ROOT, doc), "utf8");
    const start = `<!-- options: ${server} -->\n`;
    const at = text.indexOf(start);
    const end = text.indexOf("<!-- /options -->", at);
    if (at === -1 || end === -1) throw new Error(`${doc} has no <!-- options: ${server} --> … <!-- /options --> block`);
    texts.set(doc, `${text.slice(0, at + start.length)}${optionsTable(options)}\n${text.slice(end)}`);
  }
  return [...texts].map(([doc, text]) => ({ doc, text, changed: text !== readFileSync(join(ROOT, doc), "utf8") }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const made = await docs();
  const changed = made.filter((d) => d.changed);
  if (process.argv.includes("--check")) {
    if (changed.length > 0) {
      process.stderr.write(
        `The servers' options changed: ${changed.map((d) => d.doc).join(", ")}. Run \`npm run docs:options\`.\n`,
      );
      process.exitCode = 1;
    }
  } else {
    for (const { doc, text } of changed) writeFileSync(join(ROOT, doc), text);
    process.stdout.write(
      changed.length === 0 ? "docs: no change\n" : `docs: wrote ${changed.map((d) => d.doc).join(", ")}\n`,
    );
  }
}
