import type { Icon } from "mcpkit";
import type { BuiltServer } from "./build.js";
import type { Introspected } from "./introspect.js";
import type { Project } from "./project.js";
import type { UserSetting } from "./user-config.js";

/** What a manifest is made of. */
export interface ManifestInput {
  project: Project;
  /** The bundle's name (project.ts, bundleName). */
  name: string;
  /** Its author (project.ts, authorOf). */
  author: NonNullable<Project["author"]>;
  server: BuiltServer;
  introspected: Introspected;
  userConfig: Record<string, UserSetting>;
  /** The icon's file in the bundle and its size, when there is one. */
  icon?: { file: string; size: string };
}

/**
 * The MCP Bundle's manifest.json (manifest_version 0.3): identity from package.json (else
 * from the server's own serverInfo), the node entry point, the settings asked of the user
 * and how they reach the server, and the tools and prompts the running server listed.
 */
export function manifest({
  project,
  name,
  author,
  server,
  introspected,
  userConfig,
  icon,
}: ManifestInput): Record<string, unknown> {
  const info = introspected.serverInfo;
  const env: Record<string, string> = {};
  const args = [`\${__dirname}/${server.entry}`];
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(userConfig)) {
    const { env: variable, flag, ...declared } = setting;
    config[key] = declared;
    if (variable) env[variable] = `\${user_config.${key}}`;
    if (flag) args.push(flag, `\${user_config.${key}}`);
  }
  return {
    manifest_version: "0.3",
    name,
    display_name: info.title ?? info.name,
    version: project.version ?? info.version,
    description: project.description ?? info.description ?? `The ${info.name} MCP server`,
    author,
    ...(project.repository &&
      /^https?:\/\//.test(project.repository) && { repository: { type: "git", url: project.repository } }),
    ...(project.homepage && { homepage: project.homepage }),
    ...(icon && { icon: icon.file, icons: [{ src: icon.file, size: icon.size }] }),
    server: {
      type: "node",
      entry_point: server.entry,
      mcp_config: { command: "node", args, ...(Object.keys(env).length > 0 && { env }) },
    },
    tools: introspected.tools.map((t) => ({ name: t.name, ...(t.description && { description: t.description }) })),
    tools_generated: false,
    prompts: introspected.prompts.map((p) => ({
      name: p.name,
      ...(p.description && { description: p.description }),
      ...(p.arguments && p.arguments.length > 0 && { arguments: p.arguments.map((a) => a.name) }),
      text: p.text,
    })),
    prompts_generated: false,
    ...(project.keywords && project.keywords.length > 0 && { keywords: project.keywords }),
    ...(project.license && { license: project.license }),
    compatibility: {
      // The workspace's SQL needs node:sqlite or a better-sqlite3 built for the Node.js that runs it.
      runtimes: { node: server.sqlite?.node ?? ">=20.0.0" },
      // A native module is built for this platform only.
      ...(server.native && { platforms: [process.platform] }),
    },
    ...(Object.keys(config).length > 0 && { user_config: config }),
  };
}

/** The server's own icons (serverInfo.icons), for the server.json. */
export const httpsIcons = (icons: Icon[] | undefined) => (icons ?? []).filter((i) => i.src.startsWith("https://"));

/** A PNG's width and height, from its IHDR chunk; undefined for anything else. */
export function pngSize(data: Buffer): string | undefined {
  const signature = "89504e470d0a1a0a";
  if (data.length < 24 || data.subarray(0, 8).toString("hex") !== signature) return undefined;
  return `${data.readUInt32BE(16)}x${data.readUInt32BE(20)}`;
}
