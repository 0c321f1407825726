import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// Every ```js snippet of docs/server.md, client.md, openapi.md, workspace.md, weather.md and
// github.md, type-checked as TypeScript
// against the real modules: a guide that shows an option, a method or a builder the code
// no longer has (or types differently) fails here. The names a snippet takes as given
// (the server, the client, a transport…) are declared for it.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OUT = join(ROOT, "node_modules", ".cache", "mcpkit-doc-snippets");

/** What a snippet may use without defining it: a declaration, or an import. */
const GIVEN: Record<string, string> = {
  server: 'declare const server: import("mcpkit/server").McpServer;',
  client: 'declare const client: import("mcpkit/client").Client;',
  transport: 'declare const transport: import("mcpkit").Transport;',
  authors: "declare const authors: string[];",
  skillsDirectory: "declare const skillsDirectory: string;",
  refresh: "declare function refresh(uri: unknown): void;",
  z: 'import { z } from "zod";',
  structured: 'import { structured } from "mcpkit/server";',
  toolError: 'import { toolError } from "mcpkit/server";',
  text: 'import { text } from "mcpkit/server";',
};

function snippets(doc: string): string[] {
  const text = readFileSync(join(ROOT, "docs", doc), "utf8");
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

/** The snippet as a module, with what it takes as given declared before it. */
function asModule(code: string): string {
  const defined = (name: string) =>
    new RegExp(`(const|let|function)\\s+${name}\\b`).test(code) ||
    new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`).test(code);
  const used = (name: string) => new RegExp(`(^|[^.\\w"'])${name}\\b`, "m").test(code);
  const prelude = Object.entries(GIVEN)
    .filter(([name]) => used(name) && !defined(name))
    .map(([, declaration]) => declaration);
  // Imports first (a snippet's own, then the prelude's), then declarations and the code.
  const own = code.match(/^import .*$/gm) ?? [];
  const body = code.replace(/^import .*$/gm, "");
  const imports = [...own, ...prelude.filter((line) => line.startsWith("import"))];
  const declarations = prelude.filter((line) => !line.startsWith("import"));
  return `${[...imports, ...declarations].join("\n")}\n${body}\nexport {};\n`;
}

it("compiles every snippet of docs/server.md, client.md, openapi.md and the built-in servers' docs", async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const files: string[] = [];
  for (const doc of ["server.md", "client.md", "openapi.md", "workspace.md", "weather.md", "github.md"]) {
    const blocks = snippets(doc);
    expect(blocks.length, `${doc} has snippets`).toBeGreaterThan(0);
    blocks.forEach((code, i) => {
      const file = `${doc.replace(".md", "")}-${i + 1}.ts`;
      writeFileSync(join(OUT, file), asModule(code));
      files.push(file);
    });
  }
  writeFileSync(
    join(OUT, "tsconfig.json"),
    JSON.stringify({
      extends: "../../../tsconfig.test.json",
      // Snippets name parameters they do not use, as guides do.
      compilerOptions: { rootDir: "../../..", noUnusedLocals: false, noUnusedParameters: false },
      include: files,
    }),
  );
  const output = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(OUT, "tsconfig.json")],
      { cwd: ROOT },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
  expect(output.trim(), output).toBe("");
}, 60_000);

// A reader pastes a ```js snippet into a .mjs file: TypeScript that type-checks above
// (`declare`, `as`, type annotations) would stop Node there with a SyntaxError. So every
// ```js block of the README and the guides must also parse as JavaScript, as Node reads it.
it("every ```js snippet of README.md and docs/ is JavaScript that Node parses", async () => {
  const dir = join(OUT, "js");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const docs = [
    "README.md",
    ...readdirSync(join(ROOT, "docs")).flatMap((f) => (f.endsWith(".md") ? [`docs/${f}`] : [])),
  ];
  const refused: string[] = [];
  for (const doc of docs) {
    const text = readFileSync(join(ROOT, doc), "utf8");
    for (const match of text.matchAll(/```js\n([\s\S]*?)```/g)) {
      const line = text.slice(0, match.index).split("\n").length;
      const file = join(dir, `${doc.replace(/\W/g, "_")}-${line}.mjs`);
      writeFileSync(file, match[1] as string);
      const stderr = await new Promise<string>((resolve) => {
        execFile(process.execPath, ["--check", file], (error, _stdout, err) => resolve(error ? err : ""));
      });
      if (stderr) refused.push(`${doc}:${line + 1}: ${/^\w*Error.*$/m.exec(stderr)?.[0] ?? stderr}`);
    }
  }
  expect(refused).toEqual([]);
}, 60_000);
