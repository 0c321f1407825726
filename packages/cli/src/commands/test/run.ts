import { resolve } from "node:path";
import {
  findTestFiles,
  formatReport,
  type ReporterName,
  runTests,
  type ServerTarget,
  summaryLine,
  type TestFile,
  TestFileError,
  textLine,
} from "mcpkit/testing";
import { findServer, herePlace, ServerNotFound } from "../../config/index.js";
import { replaceFile } from "../../files/replace-file.js";
import { UsageError } from "../usage-error.js";

export interface TestCommandOptions {
  reporter?: ReporterName;
  output?: string;
  config?: string;
  serverStderr?: boolean;
}

/**
 * `mcpkit test`: finds the files, runs them (mcpkit/testing's runTests), reports: each
 * test as it ends and `N passed, N failed` last; `--reporter junit|json` prints that
 * report instead (the lines a person reads then go to stderr), `--output` writes it to a
 * file (replaced in one step, never through a link planted there).
 */
export async function runTestCommand(files: string[], options: TestCommandOptions): Promise<number> {
  const reporter = options.reporter ?? "text";
  const paths = files.length > 0 ? files : await findTestFiles(process.cwd());
  if (paths.length === 0)
    throw new UsageError("No test files here: give their paths, or name them *.mcptest.yaml (docs/testing.md)");
  // What a person reads (each test as it ends, the summary last) goes to stdout, unless
  // stdout holds a junit or json report: then to stderr.
  const human = reporter !== "text" && options.output === undefined ? process.stderr : process.stdout;
  let current: string | undefined;
  let report: Awaited<ReturnType<typeof runTests>>;
  try {
    report = await runTests(paths, {
      resolveName: (name, file) => namedServer(name, file, options.config),
      ...(options.serverStderr && { inheritStderr: true }),
      onResult: (file, result) => {
        if (file !== current) human.write(`${file}\n`);
        current = file;
        human.write(textLine(result));
      },
    });
  } catch (error) {
    if (error instanceof TestFileError) throw new UsageError(error.message);
    throw error;
  }
  if (options.output !== undefined) replaceFile(resolve(options.output), formatReport(report, reporter));
  else if (reporter !== "text") process.stdout.write(formatReport(report, reporter));
  human.write(`${summaryLine(report)}\n`);
  return report.failed > 0 ? 1 : 0;
}

/** `server: NAME` in a test file: the server an MCP configuration file names, looked up from the file's folder. */
function namedServer(name: string, file: TestFile, config: string | undefined): ServerTarget {
  try {
    const { spec } = findServer(name, {
      ...(config !== undefined && { config }),
      place: { ...herePlace(), cwd: file.dir },
    });
    if (spec.transport !== "stdio") return { url: spec.url, headers: spec.headers };
    return { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd ?? file.dir };
  } catch (error) {
    if (error instanceof ServerNotFound || error instanceof UsageError)
      throw new TestFileError(`${file.path}: server: ${error.message}`);
    throw error;
  }
}
