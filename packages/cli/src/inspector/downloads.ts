import type { HistoryItem, TestFileServer } from "mcpkit/testing";
import type { Download } from "./contract/operations.js";
import type { InspectorSession } from "./session.js";
import { describeTarget } from "./target.js";

/**
 * What the page downloads of a session (issue: "the inspector offers its history as a
 * test file and a session as a recording"): made here from the protocol log with
 * mcpkit/testing, handed to the page as text, never written to a file at its request.
 * Every secret the inspector holds is left out: the values of -H and -e, the headers
 * typed in the page, and what a sign-in stored (tokens, client secrets); mcpkit/testing's
 * redaction adds the keys that name credentials and bearer tokens in any text.
 */

/** The values to leave out: every header and token held, and the command line's variables. */
function secretsOf(session: InspectorSession): string[] {
  const env = session.given.kind === "stdio" ? Object.values(session.given.env) : [];
  return [...session.credentials.secrets(), ...env];
}

/** A file name from the server's name: letters, digits, dot, dash and underscore only. */
function baseName(session: InspectorSession): string {
  const name = session.description?.serverInfo.name ?? "server";
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "") || "server";
}

/** The session's last connection as a recording `mcpkit replay` plays (JSON lines). */
export async function recordingDownload(session: InspectorSession, now = new Date()): Promise<Download> {
  const entries = session.protocolLog.lastConnection();
  if (entries === undefined)
    throw new Error(
      "The log no longer holds this connection's first messages (it keeps the last 5000): reconnect and record a shorter session",
    );
  if (entries.length === 0) throw new Error("Nothing to record yet: this connection has sent no message");
  const { recordingFromLog } = await import("mcpkit/testing");
  const recording = recordingFromLog(entries, { secrets: secretsOf(session) });
  const notes = [
    `${recording.entries.length} messages of the connection to ${describeTarget(session.target)}, from its first; credentials left out.`,
  ];
  if (recording.skipped > 0)
    notes.push(
      `${recording.skipped} message(s) too large to keep whole are left out: a replay will miss them (mcpkit record keeps everything).`,
    );
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  return {
    filename: `${baseName(session)}-${stamp}.jsonl`,
    mimeType: "application/jsonl",
    text: recording.text,
    notes,
  };
}

/**
 * The requests made of the server (every connection to this target the log keeps) as a
 * test file. `serverName` is the name the command line gave the server by: a test file
 * names it so, and its headers and variables stay in the configuration file.
 */
export async function testFileDownload(session: InspectorSession, serverName?: string): Promise<Download> {
  const { historyFromLog, redact, testFileFromHistory } = await import("mcpkit/testing");
  const secrets = secretsOf(session);
  const history = redact(historyFromLog(session.protocolLog.sameTarget()), { secrets }) as HistoryItem[];
  if (history.length === 0)
    throw new Error("No call, read, prompt or completion made yet: make some, then save them as a test file");
  const { server, leftOut } = serverEntry(session, serverName);
  const header = leftOut
    ? `# Left out: the values of ${leftOut.what}. Add them under ${leftOut.where} to run this file.\n`
    : "";
  const text = header + (await testFileFromHistory(history, { server }));
  const notes = [
    `${history.length} test(s), each expecting what came back then. Run them with: mcpkit test ${baseName(session)}.mcptest.yaml`,
  ];
  if (leftOut) notes.push(`Left out: the values of ${leftOut.what} (add them under ${leftOut.where}).`);
  if (typeof server === "object" && "command" in server)
    notes.push("The command runs in the test file's folder: save it in the folder the server starts in.");
  return { filename: `${baseName(session)}.mcptest.yaml`, mimeType: "application/yaml", text, notes };
}

/** The server as a test file names it, and the names of the secrets that stay out of it. */
function serverEntry(
  session: InspectorSession,
  serverName: string | undefined,
): { server: TestFileServer; leftOut?: { what: string; where: string } } {
  const target = session.target;
  const isGiven = target.kind === session.given.kind && describeTarget(target) === describeTarget(session.given);
  if (serverName !== undefined && isGiven) return { server: serverName };
  if (target.kind === "http") {
    const headers = session.credentials.headerNames(target.url);
    return {
      server: { url: target.url },
      ...(headers.length > 0 && { leftOut: { what: `the headers ${headers.join(", ")}`, where: "server: headers:" } }),
    };
  }
  const variables = Object.keys(target.env);
  return {
    server: { command: target.command, args: target.args },
    ...(variables.length > 0 && { leftOut: { what: `the variables ${variables.join(", ")}`, where: "server: env:" } }),
  };
}
