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
  doctor: {
    term: "doctor [options] [server...]",
    description: "Find why a server does not work: each step a client takes to reach it, with the cause and the fix",
  },
  lint: {
    term: "lint [options] [server...]",
    description:
      "Check a server's tools, prompts and resources for what breaks clients: names, schemas, results, sizes",
  },
  servers: {
    term: "servers [options]",
    description: "List the MCP servers named in this project's and your MCP clients' configuration files",
  },
  gateway: {
    term: "gateway [options]",
    description:
      "One endpoint for a team's MCP servers: their tools under one name each, signed in once, with a policy and an audit log",
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
  test: {
    term: "test [options] [files...]",
    description: "Run a server's YAML test files (**/*.mcptest.yaml): each test a request and what its answer holds",
  },
  record: {
    term: "record [options] [server...]",
    description: "Record every message between a client and a server, as a relay over stdio or HTTP",
  },
  replay: {
    term: "replay [options] <recording> [server...]",
    description: "Play a recording's client side against a server and show where its answers differ",
  },
  snapshot: {
    term: "snapshot [options] [server...]",
    description: "Write a server's surface as JSON: info, capabilities, tools, prompts, resources, templates",
  },
  diff: {
    term: "diff [options] <old> <new>",
    description: "Compare two snapshots: the changes that break clients, and those that do not",
  },
  completion: {
    term: "completion <shell>",
    description: "Print the shell completion script for bash, zsh or fish",
  },
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
