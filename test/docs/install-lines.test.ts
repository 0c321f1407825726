import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RELEASED } from "../../scripts/release.mjs";

// Until the packages are published, the docs install them from the tarballs `npm run
// release` packs. A line that installs one must name the tarballs of the released packages
// it needs (its dependencies and required peers): npm would look for those on the
// registry, which answers E404 (`npm install mcpkit-servers-0.1.0.tgz` alone failed so).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifests: Manifest[] = RELEASED.map((dir: string) =>
  JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")),
);
/** The file `npm pack` makes of a package: @mcpkit/servers 0.1.0 is mcpkit-servers-0.1.0.tgz. */
const tarball = (m: Manifest) => `${m.name.replace(/^@/, "").replace("/", "-")}-${m.version}.tgz`;
const byTarball = new Map(manifests.map((m) => [tarball(m), m]));
const released = new Set(manifests.map((m) => m.name));

/** The released packages a package cannot install without. */
function needs(m: Manifest): string[] {
  const required = Object.keys(m.peerDependencies ?? {}).filter((p) => !m.peerDependenciesMeta?.[p]?.optional);
  return [...Object.keys(m.dependencies ?? {}), ...required].filter((p) => released.has(p));
}

const docs = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const lines = docs.flatMap((doc) =>
  readFileSync(join(ROOT, doc), "utf8")
    .split("\n")
    .map((text, i) => ({ where: `${doc}:${i + 1}`, text }))
    .filter(({ text }) => /\bnpm (install|i)\b/.test(text) && /\.tgz\b/.test(text)),
);

describe("the docs' installs from the release tarballs", () => {
  it("are found", () => {
    expect(lines.length).toBeGreaterThan(3);
  });

  it.each(lines)("$where names every released package its tarballs need", ({ text }) => {
    // Only the npm install command itself: a table cell or a comment may name others.
    const command = /npm (?:install|i)\b[^`#|]*/.exec(text)?.[0] ?? "";
    const named = [...command.matchAll(/([\w.-]+\.tgz)\b/g)].map((m) => m[1] as string);
    const names = new Set(named.map((file) => byTarball.get(file)?.name));
    for (const file of named) {
      const m = byTarball.get(file);
      expect(m, `${file} is not a tarball npm run release makes`).toBeDefined();
      for (const needed of needs(m as Manifest)) expect(names, `${file} needs ${needed}`).toContain(needed);
    }
  });
});
