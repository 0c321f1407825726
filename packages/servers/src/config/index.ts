/**
 * `@mcpkit/servers/config`: reading the MCP configuration files clients write (`.mcp.json`,
 * VS Code's, Cursor's, a gateway's): JSON with comments, its mistakes said with their line
 * and column, and the variables and env files its values refer to. The gateway and the
 * mcpkit CLI read them with these.
 */
export { BOM, JsoncSyntaxError, jsoncTree, nodeValue, parseJsonc, withoutBom } from "./jsonc.js";
export { ConfigEntryError, expandVariables, readEnvFile, type VariableScope } from "./variables.js";
