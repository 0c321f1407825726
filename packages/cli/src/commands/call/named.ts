import { findServer, ServerNotFound } from "../../config/index.js";
import { UsageError } from "./exit-codes.js";

/** What a named server adds to the command line: the words for its URL or command, and where it starts. */
export interface Named {
  words: string[];
  dashed: number;
  /** The folder a stdio server starts in: its project's, as the client that reads the file starts it. */
  cwd?: string;
}

const isUrl = (word: string) => /^https?:\/\//i.test(word);

/**
 * `mcpkit call NAME …`: a first word that is not a URL, with no command after `--`, names
 * a server in an MCP configuration file (config/resolve.ts says which files, in which
 * order). Its entry becomes what `mcpkit call` takes for a URL or a command; its headers
 * and variables go before those of the command line, which win. Undefined when the words
 * name a server themselves.
 */
export function namedServer(
  words: string[],
  dashed: number,
  options: { config?: string; header?: string[]; env?: string[] },
): Named | undefined {
  const [first, ...rest] = words;
  if (dashed > 0 || first === undefined || isUrl(first)) return undefined;
  let found: ReturnType<typeof findServer>;
  try {
    found = findServer(first, options.config === undefined ? {} : { config: options.config });
  } catch (error) {
    // Most often a URL or a command was meant: say how to give those first.
    if (error instanceof ServerNotFound)
      throw new UsageError(
        `"${first}" is not a URL; to start a server over stdio, put its command after --. ${error.message}`,
      );
    throw error;
  }
  const { spec } = found;
  if (spec.transport === "stdio") {
    options.env = [...Object.entries(spec.env).map(([key, value]) => `${key}=${value}`), ...(options.env ?? [])];
    return {
      words: [...rest, spec.command, ...spec.args],
      dashed: 1 + spec.args.length,
      ...(spec.cwd !== undefined && { cwd: spec.cwd }),
    };
  }
  options.header = [
    ...Object.entries(spec.headers).map(([name, value]) => `${name}: ${value}`),
    ...(options.header ?? []),
  ];
  return { words: [spec.url, ...rest], dashed: 0 };
}
