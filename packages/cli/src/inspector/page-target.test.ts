import { describe, expect, it } from "vitest";
import { checkHeaders, httpUrl, stdioTarget } from "./page-target.js";
import type { Target } from "./target.js";

// What the page may start: the command line's own server, or a program --allow-spawn names.

const given: Target = {
  kind: "stdio",
  command: "node",
  args: ["server.js"],
  env: { TOKEN: "s3cret" },
  cwd: "/project",
};

describe("stdioTarget", () => {
  it("starts the command line's own server as given: its variables and folder", () => {
    expect(stdioTarget({ command: "node", args: ["server.js"] }, { given, allowSpawn: [] })).toBe(given);
  });

  it("starts another only when its program is on the list, without the command line's variables", () => {
    expect(stdioTarget({ command: "node", args: ["other.js"] }, { given, allowSpawn: ["node"] })).toEqual({
      kind: "stdio",
      command: "node",
      args: ["other.js"],
      env: {},
      cwd: "/project",
    });
  });

  it("matches the program exactly as the list names it", () => {
    for (const command of ["/usr/bin/node", "./node", "Node", "node "])
      expect(() => stdioTarget({ command, args: [] }, { given, allowSpawn: ["node"] })).toThrow(
        `The page may start node (mcpkit inspect --allow-spawn), not ${JSON.stringify(command)}`,
      );
  });

  it("says how to allow it when nothing is listed", () => {
    expect(() => stdioTarget({ command: "node", args: ["other.js"] }, { given, allowSpawn: [] })).toThrow(
      "Starting another command from the page needs mcpkit inspect --allow-spawn PROGRAM,…",
    );
  });
});

describe("checkHeaders and httpUrl", () => {
  it("trims values and keeps names as given", () => {
    expect(checkHeaders({ "X-Api-Key": "  k  " })).toEqual({ "X-Api-Key": "k" });
  });

  it.each([["Mcp-Session-Id"], ["mcp-protocol-version"], ["Content-Length"], ["Accept"], ["Last-Event-ID"]])(
    "refuses %s, which the client sets itself",
    (name) => {
      expect(() => checkHeaders({ [name]: "x" })).toThrow(`${name} is set by the inspector's client, not by hand`);
    },
  );

  it("refuses a value that would split into two headers", () => {
    expect(() => checkHeaders({ "X-A": "a\r\nX-B: b" })).toThrow("The value of X-A must be text on one line");
    expect(() => checkHeaders({ "X-A": 1 })).toThrow("The value of X-A must be text on one line");
  });

  it("takes http and https URLs only, without credentials in them", () => {
    expect(httpUrl("https://Example.com/mcp")).toBe("https://example.com/mcp");
    expect(() => httpUrl("file:///etc/passwd")).toThrow("The URL must be http: or https:");
    expect(() => httpUrl("not a url")).toThrow('"not a url" is not a URL');
  });
});
