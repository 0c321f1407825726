import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { rootFor } from "./connection-flags.js";

// --root, as call and inspect offer roots to a server: a path becomes a file: URI named by
// the absolute path; a URI is offered as it is.

describe("--root", () => {
  it("makes a path absolute, as a file: URI named by the path", () => {
    expect(rootFor("notes")).toEqual({ uri: pathToFileURL(resolve("notes")).href, name: resolve("notes") });
    expect(rootFor("/srv/data")).toEqual({ uri: pathToFileURL("/srv/data").href, name: resolve("/srv/data") });
  });

  it("offers a URI as it is, unnamed", () => {
    expect(rootFor("file:///srv/data")).toEqual({ uri: "file:///srv/data" });
    expect(rootFor("git+ssh://host/repo")).toEqual({ uri: "git+ssh://host/repo" });
  });

  it("escapes what a URI cannot hold as it is", () => {
    expect(rootFor("/tmp/with space#1").uri).toBe("file:///tmp/with%20space%231");
  });
});
