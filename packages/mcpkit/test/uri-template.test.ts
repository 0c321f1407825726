import { describe, expect, it } from "vitest";
import { UriTemplate } from "../src/protocol/uri-template.js";

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
