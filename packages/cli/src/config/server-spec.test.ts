// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration entries hold ${VAR} as text, which is under test
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigEntryError, serverSpec } from "./server-spec.js";

// One entry of a configuration file, read as the clients read it: how to reach the server,
// with its variables expanded (@mcpkit/servers/config tests them one by one). resolve.test.ts
// reads whole files.

const expansion = { project: "/srv/app", home: "/home/ada", env: { TOKEN: "t0k", EMPTY: "" } };

describe("an entry", () => {
  it("starts a command in the project's folder, its args and env as strings", () => {
    expect(serverSpec({ command: "node", args: ["s.js"], env: { N: 1, B: true } }, expansion)).toEqual({
      transport: "stdio",
      command: "node",
      args: ["s.js"],
      env: { N: "1", B: "true" },
      cwd: "/srv/app",
    });
    expect(serverSpec({ command: "x", cwd: "sub" }, expansion)).toMatchObject({ cwd: join("/srv/app", "sub") });
    expect(serverSpec({ command: "x" }, { home: "/h", env: {} })).not.toHaveProperty("cwd");
  });

  it("reaches a URL over HTTP, or over HTTP+SSE for type sse", () => {
    expect(serverSpec({ url: "https://x/mcp" }, expansion)).toEqual({
      transport: "http",
      url: "https://x/mcp",
      headers: {},
    });
    for (const type of ["http", "streamable-http", "streamableHttp"])
      expect(serverSpec({ type, url: "https://x/mcp" }, expansion)).toMatchObject({ transport: "http" });
    expect(serverSpec({ type: "sse", url: "https://x/sse", headers: { A: "${TOKEN}" } }, expansion)).toEqual({
      transport: "sse",
      url: "https://x/sse",
      headers: { A: "t0k" },
    });
  });

  it("has its variables expanded, ${workspaceFolder} being the project's folder", () => {
    expect(
      serverSpec({ command: "${workspaceFolder}/bin/s", args: ["${TOKEN}", "${PORT:-3000}"] }, expansion),
    ).toMatchObject({ command: "/srv/app/bin/s", args: ["t0k", "3000"] });
    expect(() => serverSpec({ command: "${workspaceFolder}/s" }, { home: "/h", env: {} })).toThrow(
      new ConfigEntryError("${workspaceFolder} is used outside a project's file"),
    );
  });

  it("is refused with a reason a person can act on", () => {
    const refused = (entry: unknown) => () => serverSpec(entry, expansion);
    expect(refused([])).toThrow(new ConfigEntryError("an entry must be an object"));
    expect(refused({ type: "http" })).toThrow('a "http" entry needs a "url"');
    expect(refused({ command: "" })).toThrow('an entry needs a "command" (or a "url")');
    expect(refused({ command: "x", args: "s.js" })).toThrow('"args" must be a list of strings');
    expect(refused({ command: "x", env: { A: {} } })).toThrow('"env.A" must be a string');
    expect(refused({ command: "x", env: [] })).toThrow('"env" must be an object of strings');
  });
});

describe("an envFile", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "mcpkit-envfile-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("gives variables the entry's env overrides, quotes and comments taken off", () => {
    writeFileSync(join(dir, ".env"), "# keys\nexport KEY=\"quoted\"\nPLAIN = 2 \nnot a line\nSINGLE='x y'\n");
    expect(
      serverSpec({ command: "x", envFile: ".env", env: { PLAIN: "3" } }, { ...expansion, project: dir }),
    ).toMatchObject({
      env: { KEY: "quoted", PLAIN: "3", SINGLE: "x y" },
    });
  });

  it("that cannot be read is said, with why", () => {
    expect(() => serverSpec({ command: "x", envFile: "missing.env" }, { ...expansion, project: dir })).toThrow(
      `its envFile ${join(dir, "missing.env")} cannot be read (ENOENT)`,
    );
  });
});
