import { isObject } from "../json/sorted.js";
import type { RecordingEntry } from "./recording.js";

/** A JSON-RPC message by what it is: its kind, method and id. */
export interface Classified {
  kind: "request" | "notification" | "response";
  method?: string;
  id?: string | number;
  message: Record<string, unknown>;
}

export function classify(message: unknown): Classified | undefined {
  if (!isObject(message)) return undefined;
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : undefined;
  if (typeof message.method === "string")
    return {
      kind: id === undefined ? "notification" : "request",
      method: message.method,
      ...(id !== undefined && { id }),
      message,
    };
  if (id !== undefined && ("result" in message || "error" in message)) return { kind: "response", id, message };
  return undefined;
}

/** One message of the client's side to send again, and what must have come before it. */
export interface Step {
  /** Its place in the recording. */
  index: number;
  message: Record<string, unknown>;
  /** The ids of the client's requests answered before it in the recording. */
  answeredBefore: (string | number)[];
  /** How many requests of each method the server had sent before it. */
  serverRequestsBefore: Map<string, number>;
}

/** A recorded server message and where it was. */
export interface Recorded {
  index: number;
  message: Record<string, unknown>;
  method?: string;
}

/** The recording read as a script: what to send, what to answer, what to expect. */
export interface Script {
  steps: Step[];
  /** The server's answers, by the id of the client request they answer. */
  answers: Map<string | number, Recorded>;
  /** The method of each client request, by id (to name answers in the report). */
  requests: Map<string | number, Record<string, unknown>>;
  /** The server's requests, in order, by method. */
  serverRequests: Map<string, Recorded[]>;
  /** The client's recorded answer to each server request, in the order of those requests, by method. */
  clientAnswers: Map<string, (Record<string, unknown> | undefined)[]>;
  notifications: Recorded[];
}

/** Reads the recording's entries into the script replay follows. */
export function scriptOf(entries: readonly RecordingEntry[]): Script {
  const script: Script = {
    steps: [],
    answers: new Map(),
    requests: new Map(),
    serverRequests: new Map(),
    clientAnswers: new Map(),
    notifications: [],
  };
  const answered: (string | number)[] = [];
  const serverCounts = new Map<string, number>();
  /** Server requests waiting for the client's answer: recorded id -> [method, place in clientAnswers]. */
  const open = new Map<string | number, [string, number]>();
  entries.forEach((entry, index) => {
    const c = classify(entry.message);
    if (!c) return;
    if (entry.from === "client") {
      if (c.kind === "response") {
        const waiting = open.get(c.id as string | number);
        if (waiting) {
          const [method, at] = waiting;
          (script.clientAnswers.get(method) as (Record<string, unknown> | undefined)[])[at] = c.message;
          open.delete(c.id as string | number);
        }
        return;
      }
      if (c.kind === "request") script.requests.set(c.id as string | number, c.message);
      script.steps.push({
        index,
        message: c.message,
        answeredBefore: [...answered],
        serverRequestsBefore: new Map(serverCounts),
      });
      return;
    }
    if (c.kind === "response") {
      if (!script.answers.has(c.id as string | number)) {
        script.answers.set(c.id as string | number, { index, message: c.message });
        answered.push(c.id as string | number);
      }
    } else if (c.kind === "request") {
      const method = c.method as string;
      const list = script.serverRequests.get(method) ?? [];
      list.push({ index, message: c.message, method });
      script.serverRequests.set(method, list);
      serverCounts.set(method, list.length);
      const answers = script.clientAnswers.get(method) ?? [];
      answers.push(undefined);
      script.clientAnswers.set(method, answers);
      open.set(c.id as string | number, [method, answers.length - 1]);
    } else script.notifications.push({ index, message: c.message, method: c.method as string });
  });
  return script;
}
