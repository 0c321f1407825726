import type { Node } from "jsonc-parser";

/** One mistake in the configuration file, where it is. */
export interface ConfigProblem {
  /** Its line in the file, from 1. */
  line: number;
  /** Its column in the line, from 1. */
  column: number;
  /** The key path, `gateway.servers.files.tools` (empty for the whole file). */
  path: string;
  /** What is wrong, and what to write instead when that is known. */
  message: string;
}

/** The file cannot be used: every mistake found, each with its line and column. */
export class GatewayConfigError extends Error {
  /** Every mistake found, in the file's order. */
  readonly problems: readonly ConfigProblem[];
  /** The file's absolute path. */
  readonly file: string;

  constructor(file: string, problems: readonly ConfigProblem[]) {
    super(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ""}${p.message}`).join("\n"));
    this.name = "GatewayConfigError";
    this.file = file;
    this.problems = problems;
  }
}

/** Finds line and column (1-based) of offsets in one text. */
export function positions(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (starts[low] as number) + 1 };
  };
}

/** Collects problems at nodes of one file. */
export class Problems {
  readonly list: ConfigProblem[] = [];
  private readonly at: (offset: number) => { line: number; column: number };

  constructor(text: string) {
    this.at = positions(text);
  }

  /** A problem at `node` (its value; for a property, its key), or at the file's start. */
  add(node: Node | undefined, path: string, message: string): void {
    const target = node?.type === "property" ? node.children?.[0] : node;
    this.list.push({ ...this.at(target?.offset ?? 0), path, message });
  }
}
