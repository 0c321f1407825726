import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientEntry, installFile } from "./install-target.js";
import type { Place } from "./locations.js";

// Where `mcpkit install` writes, and the entry each client expects.

const place: Place = { cwd: "/work/app", home: "/home/ada", platform: "linux", env: {} };

describe("an install target", () => {
  it("writes each client's own shape, and reaches a URL from Claude Desktop through mcpkit's proxy", () => {
    const http = { transport: "http" as const, url: "https://x/mcp", headers: { A: "b" } };
    const command = { transport: "stdio" as const, command: "node", args: ["s.js"], env: {} };
    const mcpkit = ["/usr/bin/node", "/opt/mcpkit.js"];
    expect(clientEntry("claude-desktop", http, mcpkit)).toEqual({
      command: "/usr/bin/node",
      args: ["/opt/mcpkit.js", "serve", "proxy", "https://x/mcp", "--header", "A: b"],
    });
    expect(clientEntry("cursor", http, mcpkit)).toEqual({ url: "https://x/mcp", headers: { A: "b" } });
    expect(clientEntry("vscode", http, mcpkit)).toEqual({ type: "http", url: "https://x/mcp", headers: { A: "b" } });
    expect(clientEntry("claude-code", command, mcpkit)).toEqual({ type: "stdio", command: "node", args: ["s.js"] });
    expect(clientEntry("claude-desktop", command, mcpkit)).toEqual({ command: "node", args: ["s.js"] });
  });

  it("writes each client's file for this project or this user", () => {
    expect(installFile("claude-code", "project", place)).toMatchObject({ path: join(place.cwd, ".mcp.json") });
    expect(installFile("claude-code", "user", place)).toMatchObject({ path: join(place.home, ".claude.json") });
    expect(installFile("vscode", "project", place)).toMatchObject({
      path: join(place.cwd, ".vscode/mcp.json"),
      key: "servers",
    });
    expect(installFile("cursor", "user", place)).toMatchObject({ path: join(place.home, ".cursor/mcp.json") });
    expect(() => installFile("claude-desktop", "project", place)).toThrow(/no per-project configuration/);
  });
});
