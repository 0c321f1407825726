/**
 * A unified diff (the `diff -u` format) between two texts, for edit_file's preview.
 * Lines are compared with Myers' O((N+M)·D) algorithm after trimming the common start and
 * end; past MAX_EDIT_DISTANCE changed lines the middle is shown as one replacement.
 */

type Op = { kind: " " | "-" | "+"; line: string };

const MAX_EDIT_DISTANCE = 1000;
const CONTEXT = 3;
const NO_NEWLINE = "\n\\ No newline at end of file";

/** A last line without a newline carries the marker, so it differs from the same line with one (as in git). */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  else lines[lines.length - 1] += NO_NEWLINE;
  return lines;
}

/** The shortest edit script from a to b (Myers 1986), or undefined when it needs more than `limit` edits. */
function myers(a: string[], b: string[], limit: number): Op[] | undefined {
  const max = Math.min(a.length + b.length, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // The frontier before each round, only the diagonals that round reads: O(D²) memory.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
      let x = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= a.length && y >= b.length) return backtrack(trace, a, b);
    }
  }
  return undefined;
}

/** Walks the saved frontiers back from the end, collecting the script in reverse. */
function backtrack(trace: Int32Array[], a: string[], b: string[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const frontier = trace[d] as Int32Array;
    const at = (k: number) => frontier[k + d + 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      y--;
      ops.push({ kind: " ", line: a[--x] as string });
    }
    if (down) ops.push({ kind: "+", line: b[--y] as string });
    else ops.push({ kind: "-", line: a[--x] as string });
  }
  while (x > 0 && y > 0) {
    y--;
    ops.push({ kind: " ", line: a[--x] as string });
  }
  return ops.reverse();
}

function editScript(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = myers(midA, midB, MAX_EDIT_DISTANCE) ?? [
    ...midA.map((line): Op => ({ kind: "-", line })),
    ...midB.map((line): Op => ({ kind: "+", line })),
  ];
  const same = (line: string): Op => ({ kind: " ", line });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

/** The diff of `before` to `after` as `diff -u` prints it, or "" when they are equal. */
export function unifiedDiff(before: string, after: string, path: string): string {
  const ops = editScript(splitLines(before), splitLines(after));
  const changed = ops.flatMap((op, i) => (op.kind === " " ? [] : [i]));
  if (changed.length === 0) return "";
  // Line numbers (1-based) of each op in the old and the new text.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.kind !== "+") o++;
    if (op.kind !== "-") n++;
  }
  const out = [`--- a/${path}`, `+++ b/${path}`];
  let i = 0;
  while (i < changed.length) {
    const from = Math.max(0, (changed[i] as number) - CONTEXT);
    let to = Math.min(ops.length, (changed[i] as number) + CONTEXT + 1);
    while (i + 1 < changed.length && (changed[i + 1] as number) - CONTEXT <= to) {
      i++;
      to = Math.min(ops.length, (changed[i] as number) + CONTEXT + 1);
    }
    i++;
    const hunk = ops.slice(from, to);
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    // An empty side names the line before it (diff -u: "-0,0" for an empty file).
    const oldStart = (oldLine[from] as number) - (oldCount === 0 ? 1 : 0);
    const newStart = (newLine[from] as number) - (newCount === 0 ? 1 : 0);
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return `${out.join("\n")}\n`;
}
