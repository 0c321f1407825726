import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientEntry } from "./install/entry.js";
import { placeSpec } from "./install/placement.js";
import { installFile } from "./install-target.js";
import type { Place } from "./locations.js";

// Where `mcpkit install` writes, and the entry each client expects.

const place: Place = { cwd: "/srv/app", home: "/home/ada", platform: "linux", env: {} };

describe("an install target", () => {
  it("writes each client's own shape, and reaches a URL from Claude Desktop through mcpkit's proxy", () => {
    const http = { transport: "http" as const, url: "https://x/mcp", headers: { A: "b" } };
    const command = { transport: "stdio" as const, command: "node", args: ["s.js"], env: {} };
    const mcpkit = [process.execPath, "/opt/mcpkit.js"];
    const desktop = installFile("claude-desktop", "user", place);
    expect(clientEntry("claude-desktop", placeSpec(http, desktop, { mcpkit }).spec, "x")).toEqual({
      command: process.execPath,
      args: ["/opt/mcpkit.js", "serve", "proxy", "https://x/mcp", "--header", "A: b"],
    });
    expect(clientEntry("cursor", http, "x")).toEqual({ url: "https://x/mcp", headers: { A: "b" } });
    expect(clientEntry("vscode", http, "x")).toEqual({ type: "http", url: "https://x/mcp", headers: { A: "b" } });
    expect(clientEntry("claude-code", command, "x")).toEqual({ type: "stdio", command: "node", args: ["s.js"] });
    expect(clientEntry("claude-desktop", command, "x")).toEqual({ command: "node", args: ["s.js"] });
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
