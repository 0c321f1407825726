import type { CallToolResult, JsonSchema, Tool } from "../protocol/types/features.js";
import { compileJsonSchema, type Validator } from "../schema/validator.js";
import { withoutPatterns } from "../schema/without-patterns.js";

/**
 * A tool's result that breaks the tool's own outputSchema (server/tools §Output Schema:
 * servers MUST conform, clients SHOULD validate). The result is kept for inspection.
 */
export class ToolOutputError extends Error {
  readonly toolName: string;
  readonly result: CallToolResult;
  readonly reason: "missing-structured-content" | "schema-mismatch";

  constructor(toolName: string, result: CallToolResult, reason: ToolOutputError["reason"], detail: string) {
    super(
      reason === "missing-structured-content"
        ? `Tool ${toolName} declares an outputSchema but returned no structuredContent`
        : `Tool ${toolName} returned structuredContent that does not match its outputSchema: ${detail}`,
    );
    this.name = "ToolOutputError";
    this.toolName = toolName;
    this.result = result;
    this.reason = reason;
  }
}

interface Known {
  schema: JsonSchema;
  validate: Validator | undefined;
}

/**
 * The outputSchemas of the tools this client has listed, their validators compiled on a
 * tool's first call. A list change forgets them all: a stale schema would fail good results.
 */
export class OutputSchemas {
  private readonly known = new Map<string, Known>();
  private readonly onError: ((error: unknown) => void) | undefined;

  constructor(onError: ((error: unknown) => void) | undefined) {
    this.onError = onError;
  }

  /** Tools from a tools/list result (one page or all). */
  note(tools: readonly Tool[]): void {
    for (const tool of tools) {
      const schema = tool.outputSchema;
      if (schema === undefined) this.known.delete(tool.name);
      else if (this.known.get(tool.name)?.schema !== schema) this.known.set(tool.name, { schema, validate: undefined });
    }
  }

  forget(): void {
    this.known.clear();
  }

  /** `result` as it is, or a ToolOutputError when it breaks the tool's outputSchema. */
  check(name: string, result: CallToolResult): CallToolResult | Promise<CallToolResult> {
    const known = this.known.get(name);
    // Synchronous when there is nothing to check: most calls allocate nothing here.
    if (known === undefined || result.isError === true) return result;
    return this.checkAgainst(name, known, result);
  }

  private async checkAgainst(name: string, known: Known, result: CallToolResult): Promise<CallToolResult> {
    if (result.structuredContent === undefined)
      throw new ToolOutputError(name, result, "missing-structured-content", "");
    let validate = known.validate;
    if (validate === undefined) {
      try {
        // The server's patterns are not run on its own strings: a pattern and a string of its
        // choosing can take a backtracking engine hours (without-patterns.ts).
        validate = compileJsonSchema(withoutPatterns(known.schema));
      } catch (error) {
        // The server's schema is broken, not its result: say so once and stop checking.
        this.known.delete(name);
        this.onError?.(
          new Error(`Tool ${name} has an outputSchema this client cannot use: ${(error as Error).message}`),
        );
        return result;
      }
      known.validate = validate;
    }
    let checked: Awaited<ReturnType<Validator>>;
    try {
      checked = await validate(result.structuredContent);
    } catch (error) {
      this.known.delete(name);
      this.onError?.(new Error(`Tool ${name} has an outputSchema this client cannot use: ${(error as Error).message}`));
      return result;
    }
    if (!checked.ok) throw new ToolOutputError(name, result, "schema-mismatch", checked.message);
    return result;
  }
}
