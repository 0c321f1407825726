import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_MATCHED_URI, UriTemplate } from "../src/protocol/uri-template.js";
import { compile, type MatchPart, run } from "../src/protocol/uri-template-match.js";

// Examples from RFC 6570 §3.2.
const vars = {
  var: "value",
  hello: "Hello World!",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  x: "1024",
  y: "768",
  empty: "",
};

describe("RFC 6570 URI templates", () => {
  it.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["{#path}", "#/foo/bar"],
    ["map?{x,y}", "map?1024,768"],
    ["{.list}", ".red,green,blue"],
    ["{.list*}", ".red.green.blue"],
    ["{/list*}", "/red/green/blue"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{var:3}", "val"],
    ["{list}", "red,green,blue"],
    ["{?undefined}", ""],
  ])("expands %s", (template, expected) => {
    expect(new UriTemplate(template).expand(vars)).toBe(expected);
  });

  it("matches URIs back to variables", () => {
    expect(new UriTemplate("test://template/{id}/data").match("test://template/123/data")).toEqual({ id: "123" });
    expect(new UriTemplate("file:///{+path}").match("file:///a/b/c.txt")).toEqual({ path: "a/b/c.txt" });
    expect(new UriTemplate("users/{id}{?fields,sort}").match("users/7?sort=asc&fields=a")).toEqual({
      id: "7",
      sort: "asc",
      fields: "a",
    });
    expect(new UriTemplate("x{/segs*}").match("x/a/b")).toEqual({ segs: ["a", "b"] });
    expect(new UriTemplate("q://{name}").match("q://J%C3%BCrgen%20X")).toEqual({ name: "Jürgen X" });
  });

  it("rejects URIs that do not fit", () => {
    const t = new UriTemplate("test://template/{id}/data");
    expect(t.match("test://template/123/other")).toBeUndefined();
    expect(t.match("test://template//data")).toBeUndefined();
    expect(t.match("test://template/a/b/data")).toBeUndefined();
    expect(t.match("other://template/1/data")).toBeUndefined();
  });

  it("round-trips expansion and matching", () => {
    const t = new UriTemplate("db://{table}/rows/{id}{?limit}");
    const uri = t.expand({ table: "my table", id: "42", limit: "10" });
    expect(uri).toBe("db://my%20table/rows/42?limit=10");
    expect(t.match(uri)).toEqual({ table: "my table", id: "42", limit: "10" });
    expect(t.variableNames).toEqual(["table", "id", "limit"]);
  });

  it("refuses malformed templates", () => {
    expect(() => new UriTemplate("a{b")).toThrow(/unclosed/);
    expect(() => new UriTemplate("a{b c}")).toThrow(/bad variable/);
  });
});

/** A template's parts as the matcher takes them. */
function partsOf(template: string): MatchPart[] {
  const pieces = template.split(/(\{[^}]*\})/).filter((p) => p !== "");
  return pieces.map((piece, i) =>
    piece.startsWith("{")
      ? { operator: "+#./;?&".includes(piece[1] as string) ? (piece[1] as string) : "", last: i === pieces.length - 1 }
      : { literal: piece },
  );
}

/** The regular expression matching used before, which backtracks: the oracle for which split a URI gets. */
function backtracking(parts: MatchPart[]): RegExp {
  const source = parts.map((part) => {
    if (part.literal !== undefined) return part.literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (part.operator === "+") return part.last ? "(.+)" : "(.+?)";
    const patterns: Record<string, string> = {
      "#": "((?:#.*)?)",
      ".": "((?:\\.[^/?#.]*)*)",
      "/": "((?:/[^/?#]*)*)",
      ";": "((?:;[^/?#]*)*)",
      "?": "((?:[?&][^#]*)?)",
      "&": "((?:[?&][^#]*)?)",
    };
    return patterns[part.operator as string] ?? "([^/?#]+)";
  });
  return new RegExp(`^${source.join("")}$`);
}

describe("matching a URI against a template", () => {
  it("takes the split a backtracking regular expression takes, for any template and URI", () => {
    const text = (max: number) => fc.stringMatching(new RegExp(`^[a-z/.?&#;=,\n]{0,${max}}$`));
    const expression = fc
      .tuple(fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&"), fc.constantFrom("a", "a,b"), text(4))
      .map(([op, names, filler]) => ({ template: `{${op}${names}}`, uri: filler }));
    const literal = fc.stringMatching(/^[a-z/.?&#;=]{1,3}$/).map((l) => ({ template: l, uri: l }));
    // A URI made from the template (its literals kept, each expression some text), or any text.
    const pieces = fc.array(fc.oneof(expression, literal), { minLength: 1, maxLength: 4 });
    const cases = fc.tuple(pieces, fc.boolean(), text(12)).map(([p, made, any]) => ({
      template: p.map((x) => x.template).join(""),
      uri: made ? p.map((x) => x.uri).join("") : any,
    }));
    fc.assert(
      fc.property(cases, ({ template, uri }) => {
        const parts = partsOf(template);
        const expected = backtracking(parts)
          .exec(uri)
          ?.slice(1)
          .map((captured) => captured ?? "");
        const slots = run(compile(parts), uri);
        const found =
          slots &&
          parts.filter((p) => p.literal === undefined).map((_, n) => uri.slice(slots[2 * n], slots[2 * n + 1]));
        expect(found).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  // A backtracking regular expression took 26 s for the first URI (105 bytes) and grew as
  // a power of the length for the others: hours at the 4 MiB a request may carry.
  it.each([
    ["x://{a}{b}{c}{d}{e}{f}", `x://${"a".repeat(100_000)}/`],
    ["file://{name}{.ext}", `file://${"a.".repeat(100_000)}/`],
    ["files://{+dir}/{+name}", `files://${"a/".repeat(100_000)}\n`],
    ["x://{/a}{/b}{/c}", `x://${"/a".repeat(100_000)}#`],
    ["x://{+a}{+b}{?q}", `x://${"a".repeat(100_000)}\n`],
  ])("matches %s in time linear in the URI, not a power of it (ReDoS)", (template, uri) => {
    const started = performance.now();
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
    // Linear: about 100 ms for these 200 KB on a loaded machine; a backtracking engine, years.
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it(`matches no URI longer than ${MAX_MATCHED_URI} characters, which no real one is`, () => {
    const t = new UriTemplate("file:///{+path}");
    const longest = `file:///${"a".repeat(MAX_MATCHED_URI - 8)}`;
    expect(t.match(longest)).toEqual({ path: "a".repeat(MAX_MATCHED_URI - 8) });
    expect(t.match(`${longest}a`)).toBeUndefined();
  });
});
