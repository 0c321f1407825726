import { preview } from "../json/sorted.js";
import type { ValueDifference } from "./compare.js";
import type { LiveServer } from "./live.js";
import type { Classified, Recorded, Script } from "./script.js";

/** One message that is not as recorded. */
export interface Difference {
  /** Which message: `answer to tools/call "add" (id 3)`, `notifications/progress #2`… */
  where: string;
  /** What is wrong with it as a whole: "differs", "missing", "not in the recording". */
  message: string;
  /** For a message that differs: each place where it does. */
  details: ValueDifference[];
}

type Compare = (recorded: unknown, replayed: unknown, ignores: readonly string[][]) => ValueDifference[];

/** The differences between the recorded server messages and the replayed ones, in the recording's order. */
export function differencesOf(
  script: Script,
  live: LiveServer,
  ignores: readonly string[][],
  compare: Compare,
): Difference[] {
  const found: [number, Difference][] = [];
  const pair = (index: number, where: string, recorded: Recorded | undefined, replayed: Classified | undefined) => {
    if (!recorded && replayed) {
      found.push([index, { where, message: `not in the recording: ${preview(replayed.message)}`, details: [] }]);
      return;
    }
    if (recorded && !replayed) {
      found.push([index, { where, message: "missing: the server did not send it", details: [] }]);
      return;
    }
    if (!recorded || !replayed) return;
    const details = compare(recorded.message, replayed.message, ignores);
    if (details.length > 0) found.push([index, { where, message: "differs", details }]);
  };

  // Answers, by the id of the request they answer.
  for (const [id, recorded] of script.answers)
    pair(recorded.index, answerName(script, id), recorded, live.answers.get(id));
  for (const [id, replayed] of live.answers)
    if (!script.answers.has(id)) pair(Number.MAX_SAFE_INTEGER, answerName(script, id), undefined, replayed);

  // The server's requests, by method and order.
  const methods = new Set([...script.serverRequests.keys(), ...live.requests.keys()]);
  for (const method of methods) {
    const recorded = script.serverRequests.get(method) ?? [];
    const replayed = live.requests.get(method) ?? [];
    for (let i = 0; i < Math.max(recorded.length, replayed.length); i++)
      pair(
        recorded[i]?.index ?? Number.MAX_SAFE_INTEGER,
        `request ${method} #${i + 1} from the server`,
        recorded[i],
        replayed[i],
      );
  }

  // Notifications, in order: aligned by method, so one missing does not shift every other.
  const aligned = align(
    script.notifications.map((n) => n.method as string),
    live.notifications.map((n) => n.method as string),
  );
  const counts = new Map<string, number>();
  const nth = (method: string) => {
    const n = (counts.get(method) ?? 0) + 1;
    counts.set(method, n);
    return `${method} #${n}`;
  };
  let lastIndex = 0;
  for (const [r, l] of aligned) {
    const recorded = r === undefined ? undefined : script.notifications[r];
    const replayed = l === undefined ? undefined : live.notifications[l];
    if (recorded) lastIndex = recorded.index;
    const method = (recorded?.method ?? replayed?.method) as string;
    pair(recorded?.index ?? lastIndex, `notification ${nth(method)}`, recorded, replayed);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, difference]) => difference);
}

/** `answer to tools/call "add" (id 3)`. */
function answerName(script: Script, id: string | number): string {
  const request = script.requests.get(id);
  if (!request) return `answer to request id ${JSON.stringify(id)}, which the recording never sent`;
  const params = request.params as { name?: unknown; uri?: unknown } | undefined;
  const target =
    typeof params?.name === "string" ? ` "${params.name}"` : typeof params?.uri === "string" ? ` ${params.uri}` : "";
  return `answer to ${String(request.method)}${target} (id ${JSON.stringify(id)})`;
}

/** Beyond this many pairs the alignment is by position: a longest common subsequence costs n × m. */
const MAX_ALIGN_CELLS = 4_000_000;

/**
 * Pairs two lists of methods in order (a longest common subsequence): each pair is
 * [recorded index, replayed index], either undefined for one only in the other.
 */
export function align(
  recorded: readonly string[],
  replayed: readonly string[],
): [number | undefined, number | undefined][] {
  const [n, m] = [recorded.length, replayed.length];
  if (n * m > MAX_ALIGN_CELLS)
    return Array.from({ length: Math.max(n, m) }, (_, i) => [i < n ? i : undefined, i < m ? i : undefined]);
  // lengths[i][j]: the longest common subsequence of recorded[i..] and replayed[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lengths[i] as Uint32Array)[j] =
        recorded[i] === replayed[j]
          ? ((lengths[i + 1] as Uint32Array)[j + 1] as number) + 1
          : Math.max((lengths[i + 1] as Uint32Array)[j] as number, (lengths[i] as Uint32Array)[j + 1] as number);
  const pairs: [number | undefined, number | undefined][] = [];
  let [i, j] = [0, 0];
  while (i < n && j < m) {
    if (recorded[i] === replayed[j]) pairs.push([i++, j++]);
    else if (((lengths[i + 1] as Uint32Array)[j] as number) >= ((lengths[i] as Uint32Array)[j + 1] as number))
      pairs.push([i++, undefined]);
    else pairs.push([undefined, j++]);
  }
  while (i < n) pairs.push([i++, undefined]);
  while (j < m) pairs.push([undefined, j++]);
  return pairs;
}

/** The replay's verdict as a person reads it: each difference, numbered, with its places. */
export function formatReplay(result: { differences: readonly Difference[]; server: string; sent: number }): string {
  if (result.differences.length === 0)
    return `Replayed ${result.sent} message${result.sent === 1 ? "" : "s"} against ${result.server}: the server answered as recorded.\n`;
  const lines = [
    `Replayed ${result.sent} message${result.sent === 1 ? "" : "s"} against ${result.server}: ${result.differences.length} difference${result.differences.length === 1 ? "" : "s"}`,
  ];
  result.differences.forEach((d, i) => {
    lines.push(`${i + 1}. ${d.where}: ${d.message}`);
    for (const detail of d.details) lines.push(`     ${detail.pointer || "/"}: ${detail.message}`);
  });
  return `${lines.join("\n")}\n`;
}
