/**
 * Every change `diff` reports, with whether it breaks a client written against the old
 * server, and what it means: the one list docs/testing.md's table and `--json` both use
 * (a test checks the docs name each kind).
 */
export const CHANGE_KINDS = {
  // Breaking: a client that worked with the old server fails with the new one.
  "tool-removed": { breaking: true, meaning: "a tool is gone" },
  "prompt-removed": { breaking: true, meaning: "a prompt is gone" },
  "resource-removed": { breaking: true, meaning: "a resource (by URI) is gone" },
  "template-removed": { breaking: true, meaning: "a resource template (by URI template) is gone" },
  "input-required-added": {
    breaking: true,
    meaning:
      "an input (a tool's argument, at any depth, or a prompt's argument) is new and required, or became required",
  },
  "input-removed": { breaking: true, meaning: "an input the old server took is no longer declared" },
  "input-type-changed": { breaking: true, meaning: "an input no longer takes a type it took (changed or narrowed)" },
  "input-enum-narrowed": {
    breaking: true,
    meaning: "an input takes fewer values: enum values removed, or an enum added",
  },
  "input-bounds-tightened": {
    breaking: true,
    meaning:
      "an input's bounds are tighter: minimum, maximum, their exclusive forms, minLength, maxLength, minItems, maxItems, minProperties, maxProperties or multipleOf added or tightened",
  },
  "input-pattern-added": { breaking: true, meaning: "an input has a pattern it did not have, or a different one" },
  "input-format-added": { breaking: true, meaning: "an input has a format it did not have, or a different one" },
  "input-closed": { breaking: true, meaning: "an object input no longer takes properties it does not name" },
  "input-changed": {
    breaking: true,
    meaning: "an input's schema changed in a way diff cannot judge (anyOf, oneOf, allOf, not, $ref…): check it by hand",
  },
  "output-removed": {
    breaking: true,
    meaning: "an output property is gone, or the tool no longer declares an outputSchema",
  },
  "output-made-optional": {
    breaking: true,
    meaning: "an output property the old server always gave may now be missing",
  },
  "output-type-changed": { breaking: true, meaning: "an output property may have a type it could not have before" },
  "output-enum-widened": {
    breaking: true,
    meaning: "an output property may have values it could not have: enum values added, or its enum removed",
  },
  "output-changed": {
    breaking: true,
    meaning:
      "an output's schema changed in a way diff cannot judge (anyOf, oneOf, allOf, not, $ref…): check it by hand",
  },
  "mime-type-changed": { breaking: true, meaning: "a resource or template gives another MIME type" },
  "capability-removed": { breaking: true, meaning: "the server no longer declares a capability (or a flag of one)" },
  // Compatible: a client of the old server keeps working.
  "tool-added": { breaking: false, meaning: "a new tool" },
  "prompt-added": { breaking: false, meaning: "a new prompt" },
  "resource-added": { breaking: false, meaning: "a new resource" },
  "template-added": { breaking: false, meaning: "a new resource template" },
  "input-optional-added": { breaking: false, meaning: "a new optional input" },
  "input-made-optional": { breaking: false, meaning: "a required input became optional" },
  "input-widened": {
    breaking: false,
    meaning:
      "an input takes more: another type, enum values added or removed, bounds loosened, a pattern or format removed",
  },
  "input-default-changed": { breaking: false, meaning: "an input's default changed" },
  "output-added": { breaking: false, meaning: "a new output property, or a tool's first outputSchema" },
  "output-narrowed": { breaking: false, meaning: "an output property has fewer types or values than it could have" },
  "description-changed": { breaking: false, meaning: "a description (or the server's instructions) changed" },
  "title-changed": { breaking: false, meaning: "a title changed" },
  "version-changed": { breaking: false, meaning: "the server's version changed" },
  "protocol-changed": { breaking: false, meaning: "the snapshots were taken at different protocol revisions" },
  "annotations-changed": { breaking: false, meaning: "a tool's or resource's annotations (hints) changed" },
  "capability-added": { breaking: false, meaning: "the server declares a new capability (or a flag of one)" },
  "other-changed": { breaking: false, meaning: "another field changed (icons, _meta, name of a resource, size…)" },
} as const satisfies Record<string, { breaking: boolean; meaning: string }>;

export type ChangeKind = keyof typeof CHANGE_KINDS;

/** One change: its kind, what it concerns (`tool:add/input/a`), and a sentence saying it. */
export interface Change {
  kind: ChangeKind;
  target: string;
  message: string;
}

/** What `diff` found, split as `--json` prints it. */
export interface SnapshotDiff {
  breaking: Change[];
  compatible: Change[];
}
