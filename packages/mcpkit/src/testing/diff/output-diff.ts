import { preview } from "../json/sorted.js";
import { annotations, type Emit } from "./input-diff.js";
import {
  constraintsText,
  describeTypes,
  objectParts,
  type Schema,
  schemaOf,
  takes,
  typesOf,
  unjudged,
  valuesOf,
} from "./schema-parts.js";

/** Changes between two schemas of what a client receives: a wider schema breaks old clients. */
export function diffOutput(old: Schema, now: Schema, path: readonly string[], emit: Emit): void {
  annotations(old, now, path, emit);
  if (unjudged(old) || unjudged(now)) {
    if (constraintsText(old) !== constraintsText(now)) emit("output-changed", path, "its schema changed");
    return;
  }
  const [was, is] = [typesOf(old), typesOf(now)];
  const added = is ? [...is].filter((t) => !takes(was, t)) : was ? ["any type"] : [];
  if (added.length > 0) emit("output-type-changed", path, `was ${describeTypes(was)}, may now be ${describeTypes(is)}`);
  else if (was && is && [...was].some((t) => !takes(is, t)))
    emit("output-narrowed", path, `was ${describeTypes(was)}, is now ${describeTypes(is)}`);

  const [oldValues, newValues] = [valuesOf(old), valuesOf(now)];
  if (oldValues) {
    if (!newValues) emit("output-enum-widened", path, "may now be any value, no longer one of a list");
    else {
      const more = [...newValues].filter(([key]) => !oldValues.has(key)).map(([, v]) => v);
      const fewer = [...oldValues].filter(([key]) => !newValues.has(key)).map(([, v]) => v);
      if (more.length > 0) emit("output-enum-widened", path, `may now be ${preview(more)}`);
      if (fewer.length > 0) emit("output-narrowed", path, `is no longer ${preview(fewer)}`);
    }
  } else if (newValues) emit("output-narrowed", path, `is now only ${preview([...newValues.values()])}`);

  const [before, after] = [objectParts(old), objectParts(now)];
  for (const name of Object.keys(before.properties))
    if (!(name in after.properties)) emit("output-removed", [...path, name], "is gone");
  for (const [name, schema] of Object.entries(after.properties)) {
    const at = [...path, name];
    const previous = before.properties[name];
    if (previous === undefined) {
      emit("output-added", at, "is new");
      continue;
    }
    if (before.required.has(name) && !after.required.has(name)) emit("output-made-optional", at, "may now be missing");
    diffOutput(previous, schema, at, emit);
  }
  if (old.items !== undefined && now.items !== undefined)
    diffOutput(schemaOf(old.items), schemaOf(now.items), [...path, "[]"], emit);
}
