import type { Implementation } from "mcpkit";
import { httpsIcons } from "./manifest.js";
import type { Project } from "./project.js";
import type { UserSetting } from "./user-config.js";

export const SERVER_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** What a server.json is made of, beside the project. */
export interface ServerJsonInput {
  project: Project;
  serverInfo: Implementation;
  userConfig: Record<string, UserSetting>;
  /** Its name in the registry (package.json mcpName, or --mcp-name). */
  mcpName: string;
  /** Where it is served over Streamable HTTP, for `remotes`. */
  remotes: string[];
  /** The published .mcpb's URL and SHA-256, for an `mcpb` package. */
  mcpb?: { url: string; sha256: string };
  /**
   * How the npm package's command serves: over stdio (the default), or Streamable HTTP on
   * http://localhost:{PORT}/mcp, PORT from the environment (3000 unless set), as the HTTP
   * templates of create-mcpkit serve.
   */
  transport?: "stdio" | "http";
}

/** The port variable of an npm package served over HTTP: what the registry's url template names. */
const PORT = {
  name: "PORT",
  description: "The port it serves MCP on (http://localhost:PORT/mcp)",
  default: "3000",
  format: "number",
};

/**
 * The MCP Registry's server.json (schema 2025-12-11): the npm package (package.json name and
 * version; npm checks its mcpName), started over stdio or serving HTTP, with the environment
 * variables of its settings; an MCP Bundle when its URL is given; and remotes for servers served over HTTP.
 */
export function serverJson(input: ServerJsonInput): Record<string, unknown> {
  const { project, serverInfo, userConfig, mcpName, remotes, mcpb, transport = "stdio" } = input;
  const version = project.version ?? serverInfo.version;
  const environmentVariables = Object.values(userConfig)
    .filter((s) => s.env)
    .map((s) => ({
      name: s.env as string,
      description: s.description,
      ...(s.required && { isRequired: true }),
      ...(s.sensitive && { isSecret: true }),
      ...(s.default !== undefined && !Array.isArray(s.default) && { default: String(s.default) }),
      ...(["number", "boolean"].includes(s.type) && { format: s.type }),
      ...((s.type === "file" || s.type === "directory") && { format: "filepath" }),
    }));
  const env = environmentVariables.length > 0 ? { environmentVariables } : {};
  const npm =
    transport === "http"
      ? {
          transport: { type: "streamable-http", url: "http://localhost:{PORT}/mcp" },
          environmentVariables: [PORT, ...environmentVariables.filter((v) => v.name !== PORT.name)],
        }
      : { transport: { type: "stdio" }, ...env };
  const packages = [
    ...(project.name ? [{ registryType: "npm", identifier: project.name, version, ...npm }] : []),
    ...(mcpb
      ? [{ registryType: "mcpb", identifier: mcpb.url, fileSha256: mcpb.sha256, transport: { type: "stdio" }, ...env }]
      : []),
  ];
  const description = (project.description ?? serverInfo.description ?? `The ${serverInfo.name} MCP server`).slice(
    0,
    100,
  );
  const icons = httpsIcons(serverInfo.icons);
  return {
    $schema: SERVER_SCHEMA,
    name: mcpName,
    description,
    ...(serverInfo.title && { title: serverInfo.title.slice(0, 100) }),
    version,
    ...(project.homepage && { websiteUrl: project.homepage }),
    ...(project.repository?.startsWith("https://github.com/") && {
      repository: { url: project.repository, source: "github" },
    }),
    ...(icons.length > 0 && { icons }),
    ...(packages.length > 0 && { packages }),
    ...(remotes.length > 0 && { remotes: remotes.map((url) => ({ type: "streamable-http", url })) }),
  };
}

/**
 * What server.json needs before it can be written, in steps: the registry's name for the
 * server in package.json, which the registry checks in the published npm package. A name is
 * suggested from a GitHub repository (io.github.OWNER/NAME, the namespace the registry
 * grants a GitHub sign-in).
 */
export function mcpNameNeeded(project: Project): string {
  const github = /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)/.exec(project.repository ?? "");
  const suggested = github
    ? `io.github.${github[1]}/${github[2]}`
    : `io.github.YOUR-GITHUB-NAME/${(project.name ?? "my-server").replace(/^@[^/]+\//, "")}`;
  return [
    "server.json needs the server's name in the MCP Registry first:",
    `  1. add "mcpName": "${suggested}" to package.json${github ? "" : " (your GitHub name: the registry grants io.github.NAME to whoever signs in as NAME)"}`,
    "  2. run this again (or pass --mcp-name NAME for once: the registry still checks package.json's mcpName when you publish)",
  ].join("\n");
}
