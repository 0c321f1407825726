// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${workspaceFolder} is the clients' syntax, under test
import { describe, expect, it } from "vitest";
import { INSTALL_CLIENTS } from "../install-target.js";
import type { ServerSpec } from "../server-spec.js";
import { clientEntry } from "./entry.js";

// Each client's entry, in the shape its documentation gives (docs/workflow.md names the sources).

const stdio: ServerSpec = { transport: "stdio", command: "node", args: ["s.js"], env: { A: "1" } };
const url: ServerSpec = { transport: "http", url: "https://x.example/mcp", headers: { Authorization: "Bearer t" } };

describe("clientEntry", () => {
  it.each([
    ["claude-code", { type: "stdio", command: "node", args: ["s.js"], env: { A: "1" } }],
    ["vscode", { type: "stdio", command: "node", args: ["s.js"], env: { A: "1" } }],
    ["cursor", { command: "node", args: ["s.js"], env: { A: "1" } }],
    ["claude-desktop", { command: "node", args: ["s.js"], env: { A: "1" } }],
    ["windsurf", { command: "node", args: ["s.js"], env: { A: "1" } }],
    ["cline", { command: "node", args: ["s.js"], env: { A: "1" } }],
    ["gemini", { command: "node", args: ["s.js"], env: { A: "1" } }],
    ["zed", { source: "custom", command: "node", args: ["s.js"], env: { A: "1" } }],
    ["codex", { command: "node", args: ["s.js"], env: { A: "1" } }],
    [
      "goose",
      {
        name: "docs",
        type: "stdio",
        enabled: true,
        cmd: "node",
        args: ["s.js"],
        envs: { A: "1" },
        env_keys: [],
        timeout: 300,
      },
    ],
    ["continue", { name: "docs", type: "stdio", command: "node", args: ["s.js"], env: { A: "1" } }],
  ] as const)("%s, a command", (client, expected) => {
    expect(clientEntry(client, stdio, "docs")).toEqual(expected);
  });

  it.each([
    ["claude-code", { type: "http", url: "https://x.example/mcp", headers: { Authorization: "Bearer t" } }],
    ["vscode", { type: "http", url: "https://x.example/mcp", headers: { Authorization: "Bearer t" } }],
    ["cursor", { url: "https://x.example/mcp", headers: { Authorization: "Bearer t" } }],
    ["windsurf", { serverUrl: "https://x.example/mcp", headers: { Authorization: "Bearer t" } }],
    ["gemini", { httpUrl: "https://x.example/mcp", headers: { Authorization: "Bearer t" } }],
    ["codex", { url: "https://x.example/mcp", http_headers: { Authorization: "Bearer t" } }],
    [
      "goose",
      {
        name: "docs",
        type: "streamable_http",
        enabled: true,
        uri: "https://x.example/mcp",
        headers: { Authorization: "Bearer t" },
        envs: {},
        env_keys: [],
        timeout: 300,
      },
    ],
    [
      "continue",
      {
        name: "docs",
        type: "streamable-http",
        url: "https://x.example/mcp",
        requestOptions: { headers: { Authorization: "Bearer t" } },
      },
    ],
  ] as const)("%s, a URL", (client, expected) => {
    expect(clientEntry(client, url, "docs")).toEqual(expected);
  });

  it("gives VS Code its envFile", () => {
    expect(clientEntry("vscode", stdio, "docs", "${workspaceFolder}/.env")).toMatchObject({
      envFile: "${workspaceFolder}/.env",
    });
  });

  it("knows every client install takes", () => {
    for (const client of INSTALL_CLIENTS)
      expect(clientEntry(client, stdio, "x")).toHaveProperty(client === "goose" ? "cmd" : "command");
  });
});
