import { describe, expect, it } from "vitest";
import { asSnapshot, diff } from "../../src/testing/diff/diff.js";
import { CHANGE_KINDS, type ChangeKind } from "../../src/testing/diff/kinds.js";
import type { Snapshot } from "../../src/testing/snapshot/snapshot.js";

// diff's rules, one change at a time: each kind, breaking or compatible, from the smallest
// pair of snapshots that shows it.

type Item = Record<string, unknown>;
const base = (over: Partial<Snapshot> = {}): Snapshot => ({
  mcpkitSnapshot: 1,
  protocolVersion: "2025-11-25",
  serverInfo: { name: "s", version: "1.0.0" },
  capabilities: { tools: { listChanged: true } },
  tools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
  ...over,
});
const tool = (inputSchema: Item, extra: Item = {}): Item => ({ name: "t", inputSchema, ...extra });
const object = (properties: Item, required: string[] = []): Item => ({ type: "object", properties, required });

/** Every kind a test below met, to check that each kind is shown by one. */
const seen = new Set<string>();

/** The kinds found between two snapshots, each with its target. */
function kinds(old: Partial<Snapshot>, now: Partial<Snapshot>) {
  const { breaking, compatible } = diff(base(old), base(now));
  for (const change of [...breaking, ...compatible]) seen.add(change.kind);
  return {
    breaking: breaking.map((c) => `${c.kind} ${c.target}`),
    compatible: compatible.map((c) => `${c.kind} ${c.target}`),
  };
}
const tools = (old: Item, now: Item) => kinds({ tools: [old] }, { tools: [now] });

describe("breaking changes", () => {
  it("a tool, prompt, resource or template removed", () => {
    expect(kinds({ tools: [tool(object({}))] }, {}).breaking).toEqual(["tool-removed tool:t"]);
    expect(kinds({ prompts: [{ name: "p" }] }, {}).breaking).toEqual(["prompt-removed prompt:p"]);
    expect(kinds({ resources: [{ uri: "a://b", name: "b" }] }, {}).breaking).toEqual([
      "resource-removed resource:a://b",
    ]);
    expect(kinds({ resourceTemplates: [{ uriTemplate: "a://{x}", name: "x" }] }, {}).breaking).toEqual([
      "template-removed template:a://{x}",
    ]);
  });

  it("a new required input, a nested one, or an optional input made required", () => {
    expect(tools(tool(object({})), tool(object({ a: { type: "string" } }, ["a"]))).breaking).toEqual([
      "input-required-added tool:t/input/a",
    ]);
    expect(
      tools(tool(object({ o: object({}) })), tool(object({ o: object({ deep: { type: "number" } }, ["deep"]) })))
        .breaking,
    ).toEqual(["input-required-added tool:t/input/o/deep"]);
    expect(
      tools(tool(object({ a: { type: "string" } })), tool(object({ a: { type: "string" } }, ["a"]))).breaking,
    ).toEqual(["input-required-added tool:t/input/a"]);
    expect(
      kinds(
        { prompts: [{ name: "p", arguments: [{ name: "x" }] }] },
        { prompts: [{ name: "p", arguments: [{ name: "x" }, { name: "y", required: true }] }] },
      ).breaking,
    ).toEqual(["input-required-added prompt:p/argument/y"]);
  });

  it("an input removed", () => {
    expect(tools(tool(object({ a: { type: "string" } })), tool(object({}))).breaking).toEqual([
      "input-removed tool:t/input/a",
    ]);
    expect(
      kinds({ prompts: [{ name: "p", arguments: [{ name: "x" }] }] }, { prompts: [{ name: "p", arguments: [] }] })
        .breaking,
    ).toEqual(["input-removed prompt:p/argument/x"]);
  });

  it("an input's type changed or narrowed (number to integer, a union losing a member, any to one)", () => {
    const typed = (type: unknown) => tool(object({ a: { type } }));
    expect(tools(typed("string"), typed("number")).breaking).toEqual(["input-type-changed tool:t/input/a"]);
    expect(tools(typed("number"), typed("integer")).breaking).toEqual(["input-type-changed tool:t/input/a"]);
    expect(tools(typed(["string", "null"]), typed("string")).breaking).toEqual(["input-type-changed tool:t/input/a"]);
    expect(tools(tool(object({ a: {} })), typed("string")).breaking).toEqual(["input-type-changed tool:t/input/a"]);
  });

  it("enum values removed, or an enum added", () => {
    const e = (values?: unknown[]) => tool(object({ a: { type: "string", ...(values && { enum: values }) } }));
    expect(tools(e(["x", "y"]), e(["x"])).breaking).toEqual(["input-enum-narrowed tool:t/input/a"]);
    expect(tools(e(), e(["x"])).breaking).toEqual(["input-enum-narrowed tool:t/input/a"]);
    expect(tools(e(["x"]), e(["x", "y"])).breaking).toEqual([]);
  });

  it("bounds tightened: each lower bound raised or added, each upper bound lowered or added, multipleOf", () => {
    const b = (bounds: Item) => tool(object({ a: { type: "number", ...bounds } }));
    for (const key of ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]) {
      expect(tools(b({ [key]: 1 }), b({ [key]: 2 })).breaking, key).toEqual(["input-bounds-tightened tool:t/input/a"]);
      expect(tools(b({}), b({ [key]: 2 })).breaking, key).toEqual(["input-bounds-tightened tool:t/input/a"]);
    }
    for (const key of ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]) {
      expect(tools(b({ [key]: 9 }), b({ [key]: 5 })).breaking, key).toEqual(["input-bounds-tightened tool:t/input/a"]);
      expect(tools(b({}), b({ [key]: 5 })).breaking, key).toEqual(["input-bounds-tightened tool:t/input/a"]);
    }
    expect(tools(b({ multipleOf: 2 }), b({ multipleOf: 4 })).breaking).toEqual([
      "input-bounds-tightened tool:t/input/a",
    ]);
    expect(tools(b({ multipleOf: 4 }), b({ multipleOf: 2 })).breaking).toEqual([]);
  });

  it("a pattern or a format added or changed", () => {
    const s = (extra: Item) => tool(object({ a: { type: "string", ...extra } }));
    expect(tools(s({}), s({ pattern: "^a" })).breaking).toEqual(["input-pattern-added tool:t/input/a"]);
    expect(tools(s({ pattern: "^a" }), s({ pattern: "^b" })).breaking).toEqual(["input-pattern-added tool:t/input/a"]);
    expect(tools(s({}), s({ format: "email" })).breaking).toEqual(["input-format-added tool:t/input/a"]);
  });

  it("an object input closed to properties it does not name", () => {
    expect(tools(tool(object({})), tool({ ...object({}), additionalProperties: false })).breaking).toEqual([
      "input-closed tool:t/input",
    ]);
  });

  it("an input or output change diff cannot judge (anyOf…) is breaking, for a person to check", () => {
    const any = (of: unknown[]) => tool(object({ a: { anyOf: of } }));
    expect(tools(any([{ type: "string" }]), any([{ type: "number" }])).breaking).toEqual([
      "input-changed tool:t/input/a",
    ]);
    // Only its descriptions changed: nothing to judge.
    expect(
      tools(any([{ type: "string", description: "x" }]), any([{ type: "string", description: "y" }])).breaking,
    ).toEqual([]);
    const out = (of: unknown[]) => tool(object({}), { outputSchema: object({ r: { oneOf: of } }) });
    expect(tools(out([{ type: "string" }]), out([{ type: "number" }])).breaking).toEqual([
      "output-changed tool:t/output/r",
    ]);
  });

  it("an output property removed, retyped, widened or made optional; the outputSchema removed", () => {
    const out = (properties: Item, required: string[] = []) =>
      tool(object({}), { outputSchema: object(properties, required) });
    expect(tools(out({ sum: { type: "number" } }), out({})).breaking).toEqual(["output-removed tool:t/output/sum"]);
    expect(tools(out({ sum: { type: "number" } }), out({ sum: { type: "string" } })).breaking).toEqual([
      "output-type-changed tool:t/output/sum",
    ]);
    expect(tools(out({ sum: { type: "integer" } }), out({ sum: { type: "number" } })).breaking).toEqual([
      "output-type-changed tool:t/output/sum",
    ]);
    expect(
      tools(out({ s: { type: "string", enum: ["a"] } }), out({ s: { type: "string", enum: ["a", "b"] } })).breaking,
    ).toEqual(["output-enum-widened tool:t/output/s"]);
    expect(tools(out({ s: { type: "string", enum: ["a"] } }), out({ s: { type: "string" } })).breaking).toEqual([
      "output-enum-widened tool:t/output/s",
    ]);
    expect(tools(out({ s: { type: "string" } }, ["s"]), out({ s: { type: "string" } })).breaking).toEqual([
      "output-made-optional tool:t/output/s",
    ]);
    expect(tools(out({}), tool(object({}))).breaking).toEqual(["output-removed tool:t/output"]);
  });

  it("a resource's MIME type changed; a capability removed", () => {
    expect(
      kinds(
        { resources: [{ uri: "a://b", name: "b", mimeType: "text/plain" }] },
        { resources: [{ uri: "a://b", name: "b", mimeType: "application/json" }] },
      ).breaking,
    ).toEqual(["mime-type-changed resource:a://b"]);
    expect(
      kinds({ capabilities: { tools: { listChanged: true }, logging: {} } }, { capabilities: { tools: {} } }).breaking,
    ).toEqual(["capability-removed capability:tools.listChanged", "capability-removed capability:logging"]);
  });
});

describe("compatible changes", () => {
  it("a tool, prompt, resource or template added", () => {
    expect(
      kinds(
        {},
        {
          tools: [tool(object({}))],
          prompts: [{ name: "p" }],
          resources: [{ uri: "a://b", name: "b" }],
          resourceTemplates: [{ uriTemplate: "a://{x}", name: "x" }],
        },
      ),
    ).toEqual({
      breaking: [],
      compatible: [
        "tool-added tool:t",
        "prompt-added prompt:p",
        "resource-added resource:a://b",
        "template-added template:a://{x}",
      ],
    });
  });

  it("an optional input added, a required one made optional, an input widened, its default changed", () => {
    expect(tools(tool(object({})), tool(object({ a: { type: "string" } }))).compatible).toEqual([
      "input-optional-added tool:t/input/a",
    ]);
    expect(
      tools(tool(object({ a: { type: "string" } }, ["a"])), tool(object({ a: { type: "string" } }))).compatible,
    ).toEqual(["input-made-optional tool:t/input/a"]);
    const n = (extra: Item) => tool(object({ a: { type: "integer", ...extra } }));
    expect(tools(n({ maximum: 5 }), n({ maximum: 9 }))).toEqual({
      breaking: [],
      compatible: ["input-widened tool:t/input/a"],
    });
    expect(tools(n({}), tool(object({ a: { type: "number" } })))).toEqual({
      breaking: [],
      compatible: ["input-widened tool:t/input/a"],
    });
    expect(tools(n({ default: 1 }), n({ default: 2 }))).toEqual({
      breaking: [],
      compatible: ["input-default-changed tool:t/input/a"],
    });
    expect(
      kinds({ prompts: [{ name: "p" }] }, { prompts: [{ name: "p", arguments: [{ name: "x" }] }] }).compatible,
    ).toEqual(["input-optional-added prompt:p/argument/x"]);
  });

  it("an output property added, the first outputSchema, an output narrowed", () => {
    const out = (properties: Item) => tool(object({}), { outputSchema: object(properties) });
    expect(tools(out({}), out({ n: { type: "number" } })).compatible).toEqual(["output-added tool:t/output/n"]);
    expect(tools(tool(object({})), out({})).compatible).toEqual(["output-added tool:t/output"]);
    expect(tools(out({ n: { type: ["number", "null"] } }), out({ n: { type: "number" } }))).toEqual({
      breaking: [],
      compatible: ["output-narrowed tool:t/output/n"],
    });
  });

  it("descriptions, titles, versions, annotations, capabilities added, the protocol, anything else", () => {
    expect(tools(tool(object({}), { description: "a" }), tool(object({}), { description: "b", title: "T" }))).toEqual({
      breaking: [],
      compatible: ["description-changed tool:t", "title-changed tool:t"],
    });
    expect(
      tools(
        tool(object({ a: { type: "string", description: "x" } })),
        tool(object({ a: { type: "string", description: "y" } })),
      ).compatible,
    ).toEqual(["description-changed tool:t/input/a"]);
    expect(
      kinds(
        { serverInfo: { name: "s", version: "1.0.0" }, instructions: "a" },
        { serverInfo: { name: "s", version: "2.0.0", title: "S" }, instructions: "b" },
      ).compatible,
    ).toEqual(["title-changed server", "version-changed server", "description-changed server"]);
    expect(
      tools(tool(object({}), { annotations: { readOnlyHint: true } }), tool(object({}), { annotations: {} }))
        .compatible,
    ).toEqual(["annotations-changed tool:t"]);
    expect(kinds({}, { capabilities: { tools: { listChanged: true }, prompts: {} } }).compatible).toEqual([
      "capability-added capability:prompts",
    ]);
    expect(kinds({ protocolVersion: "2025-11-25" }, { protocolVersion: "2026-07-28" }).compatible).toEqual([
      "protocol-changed server",
    ]);
    expect(tools(tool(object({}), { icons: [] }), tool(object({}), { icons: [{ src: "x" }] })).compatible).toEqual([
      "other-changed tool:t",
    ]);
  });

  it("no change, no report; every change says what it is in a sentence", () => {
    const snapshot = base({ tools: [tool(object({ a: { type: "string" } }, ["a"]))] });
    expect(diff(snapshot, snapshot)).toEqual({ breaking: [], compatible: [] });
    const { breaking } = diff(base({ tools: [tool(object({}))] }), base({ tools: [tool(object({ q: {} }, ["q"]))] }));
    expect(breaking).toEqual([
      { kind: "input-required-added", target: "tool:t/input/q", message: 'Tool "t": input "q" is new and required' },
    ]);
  });
});

describe("the kinds", () => {
  it("are each shown by a test above, in the list it belongs to", () => {
    expect([...seen].sort()).toEqual((Object.keys(CHANGE_KINDS) as ChangeKind[]).sort());
  });

  it("refuse a file that is not a snapshot, saying so", () => {
    expect(() => asSnapshot({ tools: [] }, "old.json")).toThrow(/old.json is not a snapshot/);
    expect(() => asSnapshot({ mcpkitSnapshot: 1, tools: [] }, "new.json")).toThrow(/new.json has no "prompts" list/);
  });
});
