import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";

/**
 * JSON with comments and trailing commas, as VS Code's and Cursor's configuration files
 * allow, read with jsonc-parser (VS Code's own). A byte order mark is allowed too (Windows
 * editors write one). A mistake is thrown with its line and column.
 */
export function parseJsonc(text: string): unknown {
  const root = jsoncTree(text);
  return root === undefined ? undefined : nodeValue(root);
}

/** A byte order mark: part of the file, not of its JSON. */
export const BOM = "\uFEFF";

/** The text without its byte order mark, if it has one: what the offsets of a tree count from. */
export const withoutBom = (text: string) => (text.startsWith(BOM) ? text.slice(1) : text);

/** The first mistake in a JSONC text: where it is (1-based, after a byte order mark) and what it is, in words. */
export class JsoncSyntaxError extends SyntaxError {
  /** "JsoncSyntaxError". */
  override name = "JsoncSyntaxError";
  /** The mistake's line, from 1. */
  readonly line: number;
  /** Its column in the line, from 1. */
  readonly column: number;
  /** What is wrong, without where (`a "}" was expected`). */
  readonly reason: string;

  constructor(line: number, column: number, reason: string) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.line = line;
    this.column = column;
    this.reason = reason;
  }
}

/**
 * The syntax tree of a JSONC text (offsets count from after a byte order mark), or
 * undefined for a text with no value; throws a JsoncSyntaxError at the first mistake.
 */
export function jsoncTree(text: string): Node | undefined {
  const body = withoutBom(text);
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(body, first.offset);
    throw new JsoncSyntaxError(line, column, MISTAKES[printParseErrorCode(first.error)] ?? "not valid JSON");
  }
  return root;
}

/**
 * A node's value. Keys are defined, not assigned, as JSON.parse does, so that a key such as
 * "__proto__" is a key like any other.
 */
export function nodeValue(node: Node): unknown {
  if (node.type === "array") return (node.children ?? []).map(nodeValue);
  if (node.type !== "object") return node.value;
  const object: Record<string, unknown> = {};
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key && value)
      Object.defineProperty(object, String(key.value), {
        value: nodeValue(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return object;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

const MISTAKES: Record<string, string> = {
  InvalidSymbol: "a character JSON does not allow here",
  InvalidNumberFormat: "a number that is not written as JSON writes numbers",
  PropertyNameExpected: 'a property name in double quotes was expected ("name")',
  ValueExpected: "a value was expected",
  ColonExpected: 'a ":" was expected after the property name',
  CommaExpected: 'a "," (or the closing bracket) was expected',
  CloseBraceExpected: 'a "}" was expected',
  CloseBracketExpected: 'a "]" was expected',
  EndOfFileExpected: "text after the end of the JSON value",
  InvalidCommentToken: "a comment that is not closed",
  UnexpectedEndOfComment: "a comment that is not closed",
  UnexpectedEndOfString: "a string that is not closed",
  UnexpectedEndOfNumber: "a number cut short",
  InvalidUnicode: "an invalid \\u escape",
  InvalidEscapeCharacter: "an invalid escape (\\) in a string",
  InvalidCharacter: "a character a string may not hold as it is (a line break or a tab?)",
};
