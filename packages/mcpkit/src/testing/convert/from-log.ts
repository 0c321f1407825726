import { isObject } from "../json/sorted.js";
import { type RedactOptions, redact } from "../record/redact.js";
import { formatEntry, type RecordingEntry } from "../replay/recording.js";
import type { ClientAnswers } from "../runner/test-file.js";
import { stringifyYaml } from "../yaml.js";

/**
 * Conversions for a client that keeps a protocol log (the inspector): its session as a
 * recording `replay` plays, and the requests it made as a test file `runTests` runs.
 */

/** One message of a protocol log: when, which way, the message. */
export interface LoggedMessage {
  /** Milliseconds since the epoch (or any clock: only differences count). */
  at: number;
  /** "out": from the client to the server; "in": from the server. */
  dir: "out" | "in";
  message: unknown;
  /** The log kept only the start of a large message: it cannot be replayed and is left out. */
  truncated?: boolean;
}

/**
 * A protocol log as a recording: JSON lines `{ t, from, message }`, credentials left out
 * as `mcpkit record` leaves them out. Truncated entries are skipped and counted.
 */
export function recordingFromLog(
  log: readonly LoggedMessage[],
  options: RedactOptions = {},
): { text: string; entries: RecordingEntry[]; skipped: number } {
  const kept = log.filter((entry) => !entry.truncated && isObject(entry.message));
  const start = kept[0]?.at ?? 0;
  const entries = kept.map((entry) => ({
    t: Math.max(0, Math.round(entry.at - start)),
    from: entry.dir === "out" ? ("client" as const) : ("server" as const),
    message: redact(entry.message, options),
  }));
  return { text: entries.map(formatEntry).join(""), entries, skipped: log.length - kept.length };
}

/** The requests a test file can make. */
export type TestableMethod = "tools/call" | "resources/read" | "prompts/get" | "completion/complete";

/** The key of the test file that makes each request. */
const TESTABLE: Record<TestableMethod, string> = {
  "tools/call": "call",
  "resources/read": "read",
  "prompts/get": "prompt",
  "completion/complete": "complete",
};

/** One request a client made and how it ended: a test waiting to be written. */
export interface HistoryItem {
  method: TestableMethod;
  params: Record<string, unknown>;
  outcome: { result: Record<string, unknown> } | { error: { code: number; message: string } };
  /** What the client answered when the server asked during the request. */
  answers?: ClientAnswers;
}

/** The server's requests a client answers, and where each answer goes in `client:`. */
const ASKS: Record<string, keyof ClientAnswers> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

function note(answers: ClientAnswers, method: string, answer: unknown): void {
  const key = ASKS[method];
  if (!key || !isObject(answer)) return;
  if (key === "roots") answers.roots = (Array.isArray(answer.roots) ? answer.roots : []) as ClientAnswers["roots"];
  else answers[key] = answer;
}

/**
 * The requests of a protocol log that a test file can make, each with its final answer:
 * answers are found by id; a 2026-07-28 request answered `input_required` is represented
 * by its retry's final answer (the retry's request state and input responses dropped).
 */
export function historyFromLog(log: readonly LoggedMessage[]): HistoryItem[] {
  type Pending = { method: TestableMethod; params: Record<string, unknown>; order: number; answers: ClientAnswers };
  const pending = new Map<string | number, Pending>();
  let latest: Pending | undefined;
  /** The server's own requests (up to 2025-11-25), by id: what each asked. */
  const asked = new Map<string | number, string>();
  /** The input requests of 2026-07-28 results, by key: what each asked. */
  const inputs = new Map<string, string>();
  const items: [number, HistoryItem][] = [];
  log.forEach((entry, order) => {
    const m = entry.message;
    if (entry.truncated || !isObject(m)) return;
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
    if (id === undefined) return;
    if (entry.dir === "in" && typeof m.method === "string") {
      asked.set(id, m.method);
      return;
    }
    if (entry.dir === "out" && m.method === undefined) {
      // The client's answer to the server's request: it belongs to the request under way.
      const method = asked.get(id);
      if (method && latest) note(latest.answers, method, m.result);
      return;
    }
    if (entry.dir === "out" && typeof m.method === "string" && m.method in TESTABLE) {
      const { _meta, requestState, inputResponses, ...params } = isObject(m.params) ? m.params : {};
      const answers: ClientAnswers = {};
      if (isObject(inputResponses))
        for (const [key, answer] of Object.entries(inputResponses)) note(answers, inputs.get(key) ?? "", answer);
      latest = { method: m.method as TestableMethod, params, order, answers };
      pending.set(id, latest);
      return;
    }
    if (entry.dir !== "in") return;
    const request = pending.get(id);
    if (!request) return;
    pending.delete(id);
    if (isObject(m.result) && m.result.resultType === "input_required") {
      if (isObject(m.result.inputRequests))
        for (const [key, ask] of Object.entries(m.result.inputRequests))
          if (isObject(ask) && typeof ask.method === "string") inputs.set(key, ask.method);
      return;
    }
    const outcome = isObject(m.error)
      ? { error: { code: Number(m.error.code), message: String(m.error.message) } }
      : { result: isObject(m.result) ? m.result : {} };
    const answers = Object.keys(request.answers).length > 0 ? { answers: request.answers } : {};
    items.push([request.order, { method: request.method, params: request.params, outcome, ...answers }]);
  });
  return items.sort((a, b) => a[0] - b[0]).map(([, item]) => item);
}

/** The server a generated test file names: a command, a URL, or a configuration name. */
export type TestFileServer = string | { command: string; args?: string[] } | { url: string };

/**
 * A test file (YAML) that makes each request of `history` again and expects what came
 * back then: the structured content, content, contents, messages or values, or the error.
 */
export async function testFileFromHistory(
  history: readonly HistoryItem[],
  options: { server?: TestFileServer } = {},
): Promise<string> {
  const names = new Map<string, number>();
  const tests = history.map((item) => {
    const key = TESTABLE[item.method];
    const subject = String(
      item.params.name ??
        item.params.uri ??
        (isObject(item.params.ref) ? (item.params.ref.name ?? item.params.ref.uri) : item.method),
    );
    const base = `${key} ${subject}`;
    const n = (names.get(base) ?? 0) + 1;
    names.set(base, n);
    return {
      name: n === 1 ? base : `${base} (${n})`,
      ...requestOf(item),
      ...(item.answers && { client: item.answers }),
      expect: expectationOf(item),
    };
  });
  const file = { ...(options.server !== undefined && { server: options.server }), tests };
  return `# Made from a session: each test makes one of its requests and expects what came back then.\n${await stringifyYaml(file)}`;
}

function requestOf(item: HistoryItem): Record<string, unknown> {
  const p = item.params;
  switch (item.method) {
    case "tools/call":
      return {
        call: p.name,
        ...(isObject(p.arguments) && Object.keys(p.arguments).length > 0 && { arguments: p.arguments }),
      };
    case "resources/read":
      return { read: p.uri };
    case "prompts/get":
      return {
        prompt: p.name,
        ...(isObject(p.arguments) && Object.keys(p.arguments).length > 0 && { arguments: p.arguments }),
      };
    case "completion/complete":
      return { complete: { ref: p.ref, argument: p.argument, ...(isObject(p.context) && { context: p.context }) } };
  }
}

function expectationOf(item: HistoryItem): Record<string, unknown> {
  if ("error" in item.outcome) return { error: { code: item.outcome.error.code } };
  const result = withoutMeta(item.outcome.result) as Record<string, unknown>;
  if (result.isError === true) return { error: true };
  switch (item.method) {
    case "tools/call":
      return result.structuredContent !== undefined
        ? { structuredContent: result.structuredContent }
        : { content: result.content ?? [] };
    case "resources/read":
      return { contents: result.contents ?? [] };
    case "prompts/get":
      return { messages: result.messages ?? [] };
    case "completion/complete":
      return { values: isObject(result.completion) ? (result.completion.values ?? []) : [] };
  }
}

/** What a result carries for this request only (`_meta`, caching hints) is not expected again. */
function withoutMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMeta);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "_meta" && key !== "resultType")
      .map(([key, item]) => [key, withoutMeta(item)]),
  );
}
