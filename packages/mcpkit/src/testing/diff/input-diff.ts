import { preview } from "../json/sorted.js";
import type { ChangeKind } from "./kinds.js";
import {
  constraintsText,
  describeTypes,
  LOWER_BOUNDS,
  numberAt,
  objectParts,
  type Schema,
  schemaOf,
  takes,
  typesOf,
  UPPER_BOUNDS,
  unjudged,
  valuesOf,
} from "./schema-parts.js";

/** Reports one change at a path of property names (`[]` is the schema itself). */
export type Emit = (kind: ChangeKind, path: readonly string[], what: string) => void;

/** Changes between two schemas of what a client sends: a narrower schema breaks old clients. */
export function diffInput(old: Schema, now: Schema, path: readonly string[], emit: Emit): void {
  annotations(old, now, path, emit);
  if (unjudged(old) || unjudged(now)) {
    if (constraintsText(old) !== constraintsText(now)) emit("input-changed", path, "its schema changed");
    return;
  }
  const [was, is] = [typesOf(old), typesOf(now)];
  const lost = was ? [...was].filter((t) => !takes(is, t)) : is ? ["any type"] : [];
  if (lost.length > 0) emit("input-type-changed", path, `took ${describeTypes(was)}, now takes ${describeTypes(is)}`);
  else if (is && was && [...is].some((t) => !takes(was, t)))
    emit("input-widened", path, `took ${describeTypes(was)}, now takes ${describeTypes(is)}`);
  else if (was && !is) emit("input-widened", path, `took ${describeTypes(was)}, now takes any type`);

  const [oldValues, newValues] = [valuesOf(old), valuesOf(now)];
  if (newValues) {
    const removed = oldValues ? [...oldValues].filter(([key]) => !newValues.has(key)).map(([, v]) => v) : undefined;
    if (!oldValues) emit("input-enum-narrowed", path, `now takes only ${preview([...newValues.values()])}`);
    else if (removed && removed.length > 0) emit("input-enum-narrowed", path, `no longer takes ${preview(removed)}`);
    const added = oldValues ? [...newValues].filter(([key]) => !oldValues.has(key)).map(([, v]) => v) : [];
    if (added.length > 0) emit("input-widened", path, `also takes ${preview(added)}`);
  } else if (oldValues) emit("input-widened", path, "takes any value, no longer a list");

  bounds(old, now, path, emit);
  for (const [key, kind] of [
    ["pattern", "input-pattern-added"],
    ["format", "input-format-added"],
  ] as const) {
    if (now[key] !== undefined && now[key] !== old[key])
      emit(
        kind,
        path,
        old[key] === undefined
          ? `has the ${key} ${preview(now[key])}`
          : `${key} ${preview(old[key])} became ${preview(now[key])}`,
      );
    else if (now[key] === undefined && old[key] !== undefined)
      emit("input-widened", path, `lost its ${key} ${preview(old[key])}`);
  }
  if (old.default !== undefined || now.default !== undefined)
    if (JSON.stringify(old.default) !== JSON.stringify(now.default))
      emit("input-default-changed", path, `default ${preview(old.default)} became ${preview(now.default)}`);

  if (
    old.properties !== undefined ||
    now.properties !== undefined ||
    old.required !== undefined ||
    now.required !== undefined
  )
    properties(old, now, path, emit);
  if (old.additionalProperties !== false && now.additionalProperties === false)
    emit("input-closed", path, "no longer takes properties it does not name");
  if (old.items !== undefined && now.items !== undefined)
    diffInput(schemaOf(old.items), schemaOf(now.items), [...path, "[]"], emit);
}

/** The object's properties: removed, added (required or not), requirement changed, each compared. */
function properties(old: Schema, now: Schema, path: readonly string[], emit: Emit): void {
  const [was, is] = [objectParts(old), objectParts(now)];
  for (const name of Object.keys(was.properties))
    if (!(name in is.properties)) emit("input-removed", [...path, name], "is no longer declared");
  for (const [name, schema] of Object.entries(is.properties)) {
    const at = [...path, name];
    const before = was.properties[name];
    if (before === undefined) {
      if (is.required.has(name) && !was.required.has(name)) emit("input-required-added", at, "is new and required");
      else emit("input-optional-added", at, "is new and optional");
      continue;
    }
    if (is.required.has(name) && !was.required.has(name)) emit("input-required-added", at, "became required");
    else if (was.required.has(name) && !is.required.has(name)) emit("input-made-optional", at, "became optional");
    diffInput(before, schema, at, emit);
  }
  // A name required without a schema of its own (the old schema may have taken it freely).
  for (const name of is.required)
    if (!(name in is.properties) && !was.required.has(name))
      emit("input-required-added", [...path, name], "became required");
}

function bounds(old: Schema, now: Schema, path: readonly string[], emit: Emit): void {
  const check = (key: string, tighter: (before: number, after: number) => boolean) => {
    const [before, after] = [numberAt(old, key), numberAt(now, key)];
    if (after !== undefined && (before === undefined || tighter(before, after)))
      emit(
        "input-bounds-tightened",
        path,
        before === undefined ? `has ${key} ${after}` : `${key} ${before} became ${after}`,
      );
    else if (before !== undefined && (after === undefined || tighter(after, before)))
      emit("input-widened", path, after === undefined ? `lost ${key} ${before}` : `${key} ${before} became ${after}`);
  };
  for (const key of LOWER_BOUNDS) check(key, (before, after) => after > before);
  for (const key of UPPER_BOUNDS) check(key, (before, after) => after < before);
  // Multiples of `after` take every multiple of `before` only when `before` is a multiple of it.
  check("multipleOf", (before, after) => before % after !== 0);
}

/** Descriptions and titles of inputs and outputs alike. */
export function annotations(old: Schema, now: Schema, path: readonly string[], emit: Emit): void {
  if (path.length === 0) return; // the schema's own: the tool's description says it
  for (const [key, kind] of [
    ["description", "description-changed"],
    ["title", "title-changed"],
  ] as const)
    if (old[key] !== now[key]) emit(kind, path, `${key} ${preview(old[key])} became ${preview(now[key])}`);
}
