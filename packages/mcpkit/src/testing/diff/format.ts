import type { SnapshotDiff } from "./kinds.js";

/** The diff as a person reads it: breaking changes first, each with its kind and target. */
export function formatDiff(changes: SnapshotDiff): string {
  const section = (title: string, list: SnapshotDiff["breaking"]) =>
    list.length === 0 ? [] : [`${title} (${list.length}):`, ...list.map((c) => `  ${c.kind.padEnd(22)} ${c.message}`)];
  const lines = [...section("Breaking", changes.breaking), ...section("Compatible", changes.compatible)];
  if (lines.length === 0) return "No changes.\n";
  return `${lines.join("\n")}\n`;
}

/** `--json`: `{ "breaking": [{ "kind", "target", "message" }], "compatible": [...] }`. */
export function diffJson(changes: SnapshotDiff): string {
  const plain = (list: SnapshotDiff["breaking"]) =>
    list.map(({ kind, target, message }) => ({ kind, target, message }));
  return `${JSON.stringify({ breaking: plain(changes.breaking), compatible: plain(changes.compatible) }, null, 2)}\n`;
}
