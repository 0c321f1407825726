// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${workspaceFolder} is the clients' own syntax, text here
import { existsSync } from "node:fs";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import type { InstallTarget } from "../install-target.js";
import type { ServerSpec } from "../server-spec.js";

type Stdio = Extract<ServerSpec, { transport: "stdio" }>;

/** The command that starts a server, placed for one client's file, and what to tell the user of it. */
export interface Placed {
  spec: ServerSpec;
  /** VS Code's own envFile, when the client reads one. */
  envFile?: string;
  notes: string[];
}

export interface Placing {
  /** This installation's mcpkit as a command: this Node and its script, or npx. */
  mcpkit: readonly string[];
  /** With --env-file: the file, absolute. */
  envFile?: string;
}

/** The clients whose files take commands only: a server at a URL is reached through `mcpkit serve proxy`. */
const COMMANDS_ONLY = new Set(["claude-desktop", "cline", "zed"]);

/**
 * Writes the server's command for the file it goes into, so that it works where the file is
 * read. In a project's file (a teammate's clone), paths inside the project are written
 * relative to it (the client starts the server in the project's folder) or with the client's
 * `${workspaceFolder}`, and mcpkit itself is the project's own `node_modules/.bin/mcpkit`
 * when the project has one; in a user's file, which has no working folder, paths stay
 * absolute, and that is said. With an env file, the client reads it (VS Code's `envFile`) or
 * Node does (`node --env-file`, for a server Node starts).
 */
export function placeSpec(spec: ServerSpec, target: InstallTarget, placing: Placing): Placed {
  const notes: string[] = [];
  let stdio: Stdio;
  if (spec.transport !== "stdio") {
    if (!COMMANDS_ONLY.has(target.client)) {
      if (placing.envFile) throw new Error("--env-file is for a server started by a command, not a URL");
      return { spec, notes };
    }
    const [command, ...prefix] = placing.mcpkit as [string, ...string[]];
    const headers = Object.entries(spec.headers).flatMap(([name, value]) => ["--header", `${name}: ${value}`]);
    stdio = { transport: "stdio", command, args: [...prefix, "serve", "proxy", spec.url, ...headers], env: {} };
  } else stdio = spec;

  const project = target.project;
  const style = project === undefined ? "absolute" : target.paths;
  const inside = (path: string) =>
    project !== undefined && isAbsolute(path) && (path === project || path.startsWith(project + sep));
  const place = (path: string, command = false): string => {
    if (style === "absolute" || !inside(path)) return path;
    const rel = relative(project as string, path)
      .split(sep)
      .join("/");
    if (style === "workspace-folder") return rel === "" ? "${workspaceFolder}" : `\${workspaceFolder}/${rel}`;
    // A command without a slash would be looked for on the PATH.
    return rel === "" ? "." : command && !rel.includes("/") ? `./${rel}` : rel;
  };

  let command = stdio.command;
  let args = [...stdio.args];
  const ownMcpkit =
    placing.mcpkit[0] === command && placing.mcpkit[1] === args[0] && placing.mcpkit[0] === process.execPath;
  let nodeRuns = ownMcpkit || basename(command) === "node" || command === process.execPath;
  if (style !== "absolute" && ownMcpkit) {
    const bin = join(project as string, "node_modules", ".bin", "mcpkit");
    if (existsSync(bin)) {
      command = place(bin, true);
      args = args.slice(1);
      nodeRuns = false; // a script whose #! names node: node is put in front for --env-file
    } else
      notes.push(
        "mcpkit is not installed in this project (npm install --save-dev @mcpkit/cli), so the entry names this machine's " +
          "Node and mcpkit, which a teammate's machine may not have (--npx writes npx -y @mcpkit/cli instead)",
      );
  }
  const outside = [command, ...args].filter((word) => isAbsolute(word) && !inside(word));
  if (style !== "absolute") {
    if (outside.length > 0)
      notes.push(
        `${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} outside the project: written as this machine's path`,
      );
  } else if (outside.length > 0)
    notes.push(
      project === undefined
        ? "a user's file has no working folder: its paths are written absolute, as on this machine"
        : `${target.path} names no folder its servers start in: its paths are written absolute, as on this machine`,
    );
  command = place(command, true);
  args = args.map((word) => place(word));

  let envFile: string | undefined;
  if (placing.envFile !== undefined) {
    const file = place(placing.envFile);
    if (target.client === "vscode") envFile = file;
    else if (command.endsWith("node_modules/.bin/mcpkit")) {
      // The project's mcpkit script, run by the node on the PATH that reads the file.
      args = [`--env-file=${file}`, command, ...args];
      command = "node";
    } else if (nodeRuns) args = [`--env-file=${file}`, ...args];
    else
      throw new Error(
        `--env-file is read by VS Code itself, or by Node for a server Node starts (node or mcpkit; Node 20.6 or later): ${command} is neither. ` +
          "Give the variables with -e NAME=VALUE, or as references the client expands",
      );
  }
  return { spec: { ...stdio, command, args }, ...(envFile !== undefined && { envFile }), notes };
}
