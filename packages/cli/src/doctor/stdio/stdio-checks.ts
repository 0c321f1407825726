import type { StdioClientTransport } from "mcpkit/stdio";
import { type CheckInfo, type CheckResult, failed, passed } from "../check.js";
import { printable, tail } from "../printable.js";
import type { StdioObservation } from "./observed-stdio.js";

export const command: CheckInfo = {
  id: "command",
  severity: "error",
  summary:
    "The command exists and starts: found on PATH (or at its path), executable, in a working directory that exists.",
  fix: "Install the command, or give its full path: a client starts servers with its own PATH, which is often not your shell's.",
};

export const processAlive: CheckInfo = {
  id: "process",
  severity: "error",
  summary:
    "The process stays alive: it does not exit before answering, nor while it is being checked; what it wrote to stderr is shown.",
  fix: "Read the server's stderr above: a missing variable (pass it with --env KEY=VALUE), a missing file or module, a port in use. Run the command by hand to see it fail.",
};

export const stdoutClean: CheckInfo = {
  id: "stdout",
  severity: "error",
  summary: "Stdout carries JSON-RPC messages only (transports §stdio): no banner, no log line, in JSON or not.",
  fix: "Write logs and banners to stderr (console.error, a logger set to stderr), never to stdout: strict clients drop the connection on the first line that is not MCP.",
};

export const stderrSeen: CheckInfo = {
  id: "stderr",
  severity: "info",
  summary: "What the server wrote to stderr, where servers log: shown, never an error by itself.",
  fix: "Nothing to fix: stderr is the place for logs.",
};

/** The command did not start: the library's words say why (not on PATH, no such file, not executable). */
export function commandFailed(error: unknown, commandName: string): CheckResult {
  const message = printable(error instanceof Error ? error.message : String(error));
  const fix = /working directory/.test(message)
    ? "Create the working directory, or correct the cwd the configuration gives."
    : /permission denied/.test(message)
      ? `Make ${commandName} executable (chmod +x), or start it through its interpreter (node, python…).`
      : /no such file/.test(message)
        ? `Correct the path to ${commandName}; a relative path is taken from the working directory.`
        : command.fix;
  return failed(command, message, fix);
}

export const commandStarted = (transport: StdioClientTransport, words: string): CheckResult =>
  passed(command, `Started ${printable(words)} (pid ${transport.pid})`);

const exitText = (exit: NonNullable<StdioClientTransport["exit"]>) =>
  exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;

const stderrEnd = (observation: StdioObservation) =>
  observation.stderr.trim()
    ? `; its stderr ends:\n${printable(tail(observation.stderr))}`
    : "; it wrote nothing to stderr";

/** The process exited: before answering (`answered` false) or while it was being checked. */
export function processExited(observation: StdioObservation, answered: boolean): CheckResult {
  const exit = observation.transport.exit as NonNullable<StdioClientTransport["exit"]>;
  const when = answered ? "while it was being checked" : "before answering";
  return failed(
    processAlive,
    `The server ${exitText(exit)} ${when}${stderrEnd(observation)}`,
    observation.stderr.trim()
      ? processAlive.fix
      : "It said nothing on stderr: run the command by hand, in the same folder and with the same variables, to see it fail.",
  );
}

export const processRunning = (observation: StdioObservation): CheckResult =>
  passed(processAlive, `Still running after the checks (pid ${observation.transport.pid})`);

export function stdoutCheck(observation: StdioObservation): CheckResult {
  const stray = observation.stray;
  if (!stray) return passed(stdoutClean, "Only JSON-RPC messages on stdout");
  const lines = stray.count === 1 ? "1 line" : `${stray.count} lines`;
  return failed(
    stdoutClean,
    `${lines} on stdout ${stray.count === 1 ? "is" : "are"} not MCP; the first: ${printable(JSON.stringify(stray.first))}`,
  );
}

/** What the server wrote to stderr; once shown with its exit (`shownWithExit`), not again. */
export const stderrCheck = (observation: StdioObservation, shownWithExit = false): CheckResult =>
  passed(
    stderrSeen,
    !observation.stderr.trim()
      ? "Nothing on stderr"
      : shownWithExit
        ? "The server wrote to stderr: its last lines are shown above, with its exit"
        : `The server wrote to stderr; its last lines:\n${printable(tail(observation.stderr))}`,
  );
