/**
 * YAML from someone else (an OpenAPI document, a server's SKILL.md), read in time linear in
 * its size and with its aliases bounded. The `yaml` package checks that a mapping's keys are
 * unique by comparing each key with every key before it: n² for a mapping of n keys (20,000
 * keys, 230 KB: 7 s; a 2 MB document: ten minutes). Here they are checked against a set. The
 * package is loaded on first use, so nothing else pays for it.
 */

/** How many times aliases may be expanded, weighted by what each holds (the package's own measure, and default). */
export const MAX_YAML_ALIASES = 100;

/** The YAML's value, as JSON would carry it (the core schema); throws on invalid YAML, a repeated key or too many aliases. */
export async function parseYaml(text: string, maxAliasCount = MAX_YAML_ALIASES): Promise<unknown> {
  const { isScalar, LineCounter, parseDocument, visit } = await import("yaml");
  const lines = new LineCounter();
  // The core schema: dates and other YAML 1.1 types stay strings. Keys unchecked: see below.
  const document = parseDocument(text, { schema: "core", uniqueKeys: false, lineCounter: lines });
  const [error] = document.errors;
  if (error) throw error;
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        // A key that is a collection is one of its own (the package compares those by identity).
        if (!isScalar(key)) continue;
        if (seen.has(key.value)) {
          const at = key.range ? lines.linePos(key.range[0]) : undefined;
          throw new SyntaxError(
            `Map keys must be unique: ${JSON.stringify(key.value)} is repeated${at ? ` at line ${at.line}, column ${at.col}` : ""}`,
          );
        }
        seen.add(key.value);
      }
    },
  });
  return document.toJS({ maxAliasCount });
}
