/**
 * What `mcpkit --help` says of each command without loading it: the term commander prints
 * for it (its name, `[options]`, its arguments) and its one-line description, which the
 * command's own definition uses too. test/workflow/commands.test.ts checks the terms
 * against the commands.
 */
export const COMMAND_SUMMARIES = {
  serve: {
    term: "serve [options] [server] [target...]",
    description: "Run a built-in MCP server, or your own module, over stdio (the default) or Streamable HTTP",
  },
  call: {
    term: "call [options] [words...]",
    description: "Drive any MCP server from the terminal: list, call tools, read, get prompts, complete, watch",
  },
  inspect: {
    term: "inspect [options] [server...]",
    description: "Inspect any MCP server in the browser: tools, resources, prompts, apps and every message",
  },
  servers: {
    term: "servers [options]",
    description: "List the MCP servers named in this project's and your MCP clients' configuration files",
  },
  install: {
    term: "install [options] <client> [words...]",
    description:
      "Add a server to an MCP client's configuration: Claude Code, VS Code, Cursor, Claude Desktop, Windsurf, Cline, Gemini CLI, Zed, Codex, Goose or Continue",
  },
  dev: {
    term: "dev [options] <module>",
    description: "Serve your server module and reload it on every change; connected clients stay connected",
  },
  bundle: {
    term: "bundle [options] <server> [flags...]",
    description:
      "Package a server as an MCP Bundle (.mcpb) for Claude Desktop, or write its server.json for the MCP Registry",
  },
  completion: {
    term: "completion <shell>",
    description: "Print the shell completion script for bash, zsh or fish",
  },
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
