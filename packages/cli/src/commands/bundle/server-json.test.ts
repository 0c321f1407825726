import { describe, expect, it } from "vitest";
import { SERVER_SCHEMA, serverJson } from "./server-json.js";

// The MCP Registry's server.json that `mcpkit bundle --server-json` writes, from the
// project's package.json, the server's own description and its settings. The whole file is
// checked against the registry's schema in test/workflow/bundle.test.ts.

const project = {
  root: "/srv/notes",
  name: "@you/notes",
  version: "1.2.0",
  description: "Notes, searched and kept",
  homepage: "https://notes.example.com",
  repository: "https://github.com/you/notes",
};
const serverInfo = { name: "notes", version: "1.0.0", title: "Notes" };
const setting = (env: string, extra: object = {}) => ({
  type: "string" as const,
  title: env,
  description: `the ${env}`,
  env,
  ...extra,
});

describe("server.json", () => {
  it("names the npm package, started over stdio, with the variables its settings are read from", () => {
    const json = serverJson({
      project,
      serverInfo,
      userConfig: {
        dir: setting("NOTES_DIR", { type: "directory", required: true }),
        key: setting("NOTES_KEY", { sensitive: true }),
        limit: setting("NOTES_LIMIT", { type: "number", default: 10 }),
      },
      mcpName: "io.github.you/notes",
      remotes: [],
    });
    expect(json).toEqual({
      $schema: SERVER_SCHEMA,
      name: "io.github.you/notes",
      description: "Notes, searched and kept",
      title: "Notes",
      version: "1.2.0",
      websiteUrl: "https://notes.example.com",
      repository: { url: "https://github.com/you/notes", source: "github" },
      packages: [
        {
          registryType: "npm",
          identifier: "@you/notes",
          version: "1.2.0",
          transport: { type: "stdio" },
          environmentVariables: [
            { name: "NOTES_DIR", description: "the NOTES_DIR", isRequired: true, format: "filepath" },
            { name: "NOTES_KEY", description: "the NOTES_KEY", isSecret: true },
            { name: "NOTES_LIMIT", description: "the NOTES_LIMIT", default: "10", format: "number" },
          ],
        },
      ],
    });
  });

  it("serves Streamable HTTP on $PORT with --transport http, and lists the remotes and the bundle", () => {
    const json = serverJson({
      project,
      serverInfo,
      userConfig: { key: setting("NOTES_KEY") },
      mcpName: "io.github.you/notes",
      remotes: ["https://notes.example.com/mcp"],
      mcpb: { url: "https://notes.example.com/notes.mcpb", sha256: "ab".repeat(32) },
      transport: "http",
    });
    const [npm, mcpb] = json.packages as Record<string, unknown>[];
    expect(npm).toMatchObject({
      transport: { type: "streamable-http", url: "http://localhost:{PORT}/mcp" },
      environmentVariables: [{ name: "PORT", default: "3000", format: "number" }, { name: "NOTES_KEY" }],
    });
    expect(mcpb).toMatchObject({
      registryType: "mcpb",
      identifier: "https://notes.example.com/notes.mcpb",
      fileSha256: "ab".repeat(32),
      transport: { type: "stdio" },
    });
    expect(json.remotes).toEqual([{ type: "streamable-http", url: "https://notes.example.com/mcp" }]);
  });

  it("takes the server's own version and description when the package has none, within the registry's 100 characters", () => {
    const json = serverJson({
      project: { root: "/srv/x" },
      serverInfo: {
        name: "x",
        version: "0.3.0",
        description: "d".repeat(150),
        icons: [{ src: "data:image/png;base64,AA" }],
      },
      userConfig: {},
      mcpName: "io.github.you/x",
      remotes: [],
    });
    expect(json).toMatchObject({ version: "0.3.0", description: "d".repeat(100) });
    // No package to name, no repository that is not GitHub's, no icon that is not https.
    expect(json).not.toHaveProperty("packages");
    expect(json).not.toHaveProperty("icons");
  });
});
