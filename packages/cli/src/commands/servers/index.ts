import { relative } from "node:path";
import { Command } from "commander";
import {
  type ConfigFile,
  herePlace,
  listServers,
  type NamedServer,
  type ServerSpec,
  serverSpec,
} from "../../config/index.js";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT } from "../usage-error.js";

const CLIENT_NAMES: Record<ConfigFile["client"], string> = {
  "claude-code": "Claude Code",
  "claude-desktop": "Claude Desktop",
  cursor: "Cursor",
  vscode: "VS Code",
  "mcp.json": "mcp.json",
};

/** One server as listed: where it is named, and how it is reached (or why it cannot be). */
interface Listed {
  name: string;
  client: ConfigFile["client"];
  file: string;
  shadowed: boolean;
  spec?: ServerSpec;
  problem?: string;
}

export function serversCommand(): Command {
  return new Command("servers")
    .description(COMMAND_SUMMARIES.servers.description)
    .option("--config <file>", "read this file only")
    .option("--json", "print them as JSON, for scripts")
    .option("--names", "print only their names, one a line (for shell completion)")
    .addHelpText(
      "after",
      `
Files read, first match of a name wins (mcpkit call NAME, mcpkit inspect NAME):
  from this folder up to the root:  .mcp.json, mcp.json, .vscode/mcp.json, .cursor/mcp.json
  then yours:                       ~/.claude.json (Claude Code), Claude Desktop's
                                    claude_desktop_config.json, ~/.cursor/mcp.json,
                                    VS Code's user mcp.json
`,
    )
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action((options: { config?: string; json?: boolean; names?: boolean }) => {
      const place = herePlace();
      const list = listServers({ ...(options.config !== undefined && { config: options.config }), place });
      if (options.names) {
        const names = [...new Set(list.servers.map((s) => s.name))];
        process.stdout.write(names.map((name) => `${name}\n`).join(""));
        return;
      }
      const listed = list.servers.map((server) => describe(server, place.home, place.env));
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ servers: listed, problems: list.problems }, null, 2)}\n`);
        return;
      }
      for (const problem of list.problems) process.stderr.write(`mcpkit servers: not read: ${problem}\n`);
      if (listed.length === 0) {
        process.stdout.write(
          "No MCP servers are named here: add one with mcpkit install, or write a .mcp.json (docs/workflow.md).\n",
        );
        return;
      }
      process.stdout.write(format(listed, place.cwd, place.home));
    });
}

function describe(server: NamedServer, home: string, env: NodeJS.ProcessEnv): Listed {
  const listed: Listed = {
    name: server.name,
    client: server.file.client,
    file: server.file.path,
    shadowed: server.shadowed,
  };
  try {
    const project = server.file.project;
    listed.spec = serverSpec(server.entry, { ...(project !== undefined && { project }), home, env });
  } catch (error) {
    listed.problem = (error as Error).message;
  }
  return listed;
}

/** Grouped by file, in the order they are read; a name an earlier file took is marked. */
function format(listed: Listed[], cwd: string, home: string): string {
  const shortPath = (path: string) => {
    const inside = relative(cwd, path);
    if (!inside.startsWith("..")) return inside;
    return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
  };
  const width = Math.max(...listed.map((s) => s.name.length));
  let out = "";
  let file = "";
  for (const server of listed) {
    if (server.file !== file) {
      file = server.file;
      out += `${out ? "\n" : ""}${shortPath(file)} (${CLIENT_NAMES[server.client]})\n`;
    }
    const how = server.spec
      ? server.spec.transport === "stdio"
        ? `stdio  ${[server.spec.command, ...server.spec.args].join(" ")}`
        : `${server.spec.transport.padEnd(5)}  ${server.spec.url}`
      : `cannot be used: ${server.problem}`;
    out += `  ${server.name.padEnd(width)}  ${how}${server.shadowed ? "  (a file above names it first)" : ""}\n`;
  }
  return out;
}
