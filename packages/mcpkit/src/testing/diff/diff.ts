import { isObject, preview, sortKeys } from "../json/sorted.js";
import type { Snapshot } from "../snapshot/snapshot.js";
import { diffInput } from "./input-diff.js";
import { CHANGE_KINDS, type Change, type ChangeKind, type SnapshotDiff } from "./kinds.js";
import { diffOutput } from "./output-diff.js";
import { schemaOf } from "./schema-parts.js";

type Item = Record<string, unknown>;

/** A snapshot that is not one (a file of something else): says what it lacks. */
export class SnapshotError extends Error {
  override name = "SnapshotError";
}

/** Checks that `value` is a snapshot (`mcpkit snapshot`'s JSON); `name` says which in the error. */
export function asSnapshot(value: unknown, name = "the snapshot"): Snapshot {
  if (!isObject(value) || value.mcpkitSnapshot !== 1)
    throw new SnapshotError(
      `${name} is not a snapshot (mcpkit snapshot writes them: a JSON object with "mcpkitSnapshot": 1)`,
    );
  for (const key of ["tools", "prompts", "resources", "resourceTemplates"])
    if (!Array.isArray(value[key])) throw new SnapshotError(`${name} has no "${key}" list`);
  return value as unknown as Snapshot;
}

/**
 * What changed from one snapshot to the next (docs/testing.md, "Diff"), split into what
 * breaks a client written against `old` and what does not. Each kind is in CHANGE_KINDS.
 */
export function diff(old: Snapshot, now: Snapshot): SnapshotDiff {
  asSnapshot(old, "the old snapshot");
  asSnapshot(now, "the new snapshot");
  const changes: Change[] = [];
  const add = (kind: ChangeKind, target: string, message: string) => changes.push({ kind, target, message });

  server(old, now, add);
  capabilities(old.capabilities, now.capabilities, add);
  matched(old.tools, now.tools, "name", "tool", add, (a, b, target, label) => {
    const emit = emitter(add, target, label);
    diffInput(schemaOf(a.inputSchema), schemaOf(b.inputSchema), [], (kind, path, what) =>
      emit(kind, "input", path, what),
    );
    if (a.outputSchema !== undefined && b.outputSchema === undefined)
      add("output-removed", `${target}/output`, `${label} no longer declares an outputSchema`);
    else if (a.outputSchema === undefined && b.outputSchema !== undefined)
      add("output-added", `${target}/output`, `${label} now declares an outputSchema`);
    else if (a.outputSchema !== undefined)
      diffOutput(schemaOf(a.outputSchema), schemaOf(b.outputSchema), [], (kind, path, what) =>
        emit(kind, "output", path, what),
      );
    rest(a, b, target, label, ["name", "inputSchema", "outputSchema"], add);
  });
  matched(old.prompts, now.prompts, "name", "prompt", add, (a, b, target, label) => {
    promptArguments(a, b, target, label, add);
    rest(a, b, target, label, ["name", "arguments"], add);
  });
  matched(old.resources, now.resources, "uri", "resource", add, (a, b, target, label) =>
    rest(a, b, target, label, ["uri"], add),
  );
  matched(old.resourceTemplates, now.resourceTemplates, "uriTemplate", "template", add, (a, b, target, label) =>
    rest(a, b, target, label, ["uriTemplate"], add),
  );
  return {
    breaking: changes.filter((c) => CHANGE_KINDS[c.kind].breaking),
    compatible: changes.filter((c) => !CHANGE_KINDS[c.kind].breaking),
  };
}

type Add = (kind: ChangeKind, target: string, message: string) => void;

const LABELS = { tool: "Tool", prompt: "Prompt", resource: "Resource", template: "Template" } as const;

/** Items of one list paired by their key: removed, added, and each pair compared by `compare`. */
function matched(
  old: Item[],
  now: Item[],
  key: string,
  noun: keyof typeof LABELS,
  add: Add,
  compare: (a: Item, b: Item, target: string, label: string) => void,
): void {
  const byKey = (items: Item[]) => new Map(items.filter(isObject).map((item) => [String(item[key]), item]));
  const [before, after] = [byKey(old), byKey(now)];
  for (const [name, item] of before) {
    const target = `${noun}:${name}`;
    const label = `${LABELS[noun]} "${name}"`;
    const next = after.get(name);
    if (next === undefined) add(`${noun}-removed`, target, `${label} was removed`);
    else compare(item, next, target, label);
  }
  for (const name of after.keys())
    if (!before.has(name)) add(`${noun}-added`, `${noun}:${name}`, `${LABELS[noun]} "${name}" was added`);
}

/** A schema change as a Change: its target names the input or output path. */
function emitter(add: Add, target: string, label: string) {
  return (kind: ChangeKind, side: "input" | "output", path: readonly string[], what: string) => {
    const dotted = path.join(".").replaceAll(".[]", "[]");
    const where = path.length === 0 ? `its ${side}` : `${side} "${dotted}"`;
    add(kind, `${target}/${side}${path.map((p) => `/${p}`).join("")}`, `${label}: ${where} ${what}`);
  };
}

/** A prompt's arguments: like an object's properties, a list of { name, required }. */
function promptArguments(a: Item, b: Item, target: string, label: string, add: Add): void {
  const args = (item: Item) =>
    new Map(
      (Array.isArray(item.arguments) ? item.arguments : []).filter(isObject).map((arg) => [String(arg.name), arg]),
    );
  const [before, after] = [args(a), args(b)];
  const at = (name: string) => `${target}/argument/${name}`;
  for (const name of before.keys())
    if (!after.has(name)) add("input-removed", at(name), `${label}: argument "${name}" is no longer declared`);
  for (const [name, arg] of after) {
    const previous = before.get(name);
    if (previous === undefined) {
      add(
        arg.required === true ? "input-required-added" : "input-optional-added",
        at(name),
        `${label}: argument "${name}" is new and ${arg.required === true ? "required" : "optional"}`,
      );
      continue;
    }
    if (arg.required === true && previous.required !== true)
      add("input-required-added", at(name), `${label}: argument "${name}" became required`);
    else if (previous.required === true && arg.required !== true)
      add("input-made-optional", at(name), `${label}: argument "${name}" became optional`);
    rest(previous, arg, at(name), `${label}: argument "${name}"`, ["name", "required"], add);
  }
}

/** Which kind a change of each remaining field is; any other field is "other-changed". */
const FIELD_KINDS: Record<string, ChangeKind> = {
  description: "description-changed",
  title: "title-changed",
  annotations: "annotations-changed",
  mimeType: "mime-type-changed",
};

/** Every field not compared already, each compared as a whole. */
function rest(a: Item, b: Item, target: string, label: string, done: string[], add: Add): void {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)].filter((key) => !done.includes(key)));
  for (const field of [...fields].sort()) {
    const [before, after] = [a[field], b[field]];
    if (same(before, after)) continue;
    add(
      FIELD_KINDS[field] ?? "other-changed",
      target,
      `${label}: ${field} ${preview(before)} became ${preview(after)}`,
    );
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));

function server(old: Snapshot, now: Snapshot, add: Add): void {
  if (old.protocolVersion !== now.protocolVersion)
    add("protocol-changed", "server", `The snapshots were taken at ${old.protocolVersion} and ${now.protocolVersion}`);
  const [a, b] = [old.serverInfo ?? {}, now.serverInfo ?? {}];
  for (const field of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (same(a[field], b[field])) continue;
    const kind = field === "version" ? "version-changed" : (FIELD_KINDS[field] ?? "other-changed");
    add(kind, "server", `The server's ${field} ${preview(a[field])} became ${preview(b[field])}`);
  }
  if (old.instructions !== now.instructions) add("description-changed", "server", "The server's instructions changed");
}

/** Capabilities as the flags they set: `resources`, `resources.subscribe`… each removed or added. */
function capabilities(old: unknown, now: unknown, add: Add): void {
  const flags = (value: unknown, prefix = "", depth = 0, found = new Set<string>()) => {
    if (!isObject(value) || depth > 3) return found;
    for (const [key, item] of Object.entries(value)) {
      if (item === false || item === undefined || item === null) continue;
      const name = prefix ? `${prefix}.${key}` : key;
      found.add(name);
      flags(item, name, depth + 1, found);
    }
    return found;
  };
  const [before, after] = [flags(old), flags(now)];
  for (const flag of before)
    if (!after.has(flag)) add("capability-removed", `capability:${flag}`, `The server no longer declares ${flag}`);
  for (const flag of after)
    if (!before.has(flag)) add("capability-added", `capability:${flag}`, `The server now declares ${flag}`);
}
