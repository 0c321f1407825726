import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { type HeaderScan, headerParamValues, scanHeaderParams } from "../../protocol/mcp-headers.js";
import type { Tool } from "../../protocol/types/features.js";

/**
 * What the client knows of each tool's `x-mcp-header` parameters on Streamable HTTP
 * (2026-07-28): the last definition seen in any tools/list answer, whether it is valid,
 * and which tools to leave out of lists (server/tools §x-mcp-header: a client on HTTP
 * MUST exclude a tool whose annotations are invalid, and SHOULD warn, naming the tool and
 * the reason).
 */
export class ToolHeaders {
  private readonly scans = new Map<string, HeaderScan>();
  private readonly warned = new Set<string>();
  private readonly warn: (error: Error) => void;
  /** Set once a whole tools/list was read: a tool missing from it is not worth listing again for. */
  listedAll = false;

  constructor(warn: (error: Error) => void) {
    this.warn = warn;
  }

  /** Records the tools of one tools/list page and returns the valid ones, warning once per rejected definition. */
  accept(tools: Tool[]): Tool[] {
    return tools.filter((tool) => {
      const scan = scanHeaderParams(tool.inputSchema);
      this.scans.set(tool.name, scan);
      if (scan.valid) return true;
      const note = `${tool.name}\u0000${scan.reason}`;
      if (!this.warned.has(note)) {
        this.warned.add(note);
        this.warn(
          Object.assign(new Error(`Tool "${tool.name}" left out of tools/list: ${scan.reason}`), {
            name: "InvalidToolDefinition",
          }),
        );
      }
      return false;
    });
  }

  /** Whether a definition of `name` has been seen. */
  knows(name: string): boolean {
    return this.scans.has(name);
  }

  /**
   * The `Mcp-Param-*` headers for a call of `name` with `args` (raw strings; the transport
   * encodes them). Nothing for a tool never listed; a rejected tool cannot be called.
   */
  headersFor(name: string, args: Record<string, unknown>): Record<string, string> | undefined {
    const scan = this.scans.get(name);
    if (!scan) return undefined;
    if (!scan.valid)
      throw new McpError(ErrorCode.InvalidParams, `Tool "${name}" was rejected: ${scan.reason}`, {
        reason: "invalid-tool-definition",
      });
    return headerParamValues(scan.params, args);
  }

  clear(): void {
    this.scans.clear();
    this.listedAll = false;
  }
}
