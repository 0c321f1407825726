/**
 * Matching a URI against a URI template in time linear in the URI's length. A regular
 * expression made from the template backtracks: adjacent expressions (`{a}{b}`,
 * `{name}{.ext}`) or a reserved one before a literal (`{+dir}/{+name}`) made a 100-byte URI
 * cost seconds and a long one hours (ReDoS, CVE-2026-0621's class), and any client can send
 * resources/read. Here the same expression runs as a Pike VM (Thompson's construction with
 * submatches; Cox, "Regular Expression Matching: the Virtual Machine Approach", 2009): every
 * way through the template is followed at once, one step per character, and the one a
 * backtracking engine would have taken first (greedy, lazy and alternatives in the same
 * order of preference) gives the variables.
 */

/** What an expression of each operator matches, as the regular expression it replaces did. */
export interface MatchPart {
  /** A literal, matched as it stands. */
  literal?: string;
  /** An expression's operator ("" for a simple one); `last`: nothing follows it. */
  operator?: string;
  last?: boolean;
}

/** Go on at `first`, and (less preferred) at `second`. */
type Split = { op: "split"; first: number; second: number };

type Step =
  | { op: "char"; code: number }
  | { op: "class"; test: (code: number) => boolean }
  | Split
  | { op: "jump"; to: number }
  | { op: "save"; slot: number }
  | { op: "match" };

const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const DOT = 0x2e;
const AMPERSAND = 0x26;
/** `.` of a regular expression without the s flag: anything but a line terminator. */
const notLineEnd = (c: number) => c !== 0x0a && c !== 0x0d && c !== 0x2028 && c !== 0x2029;
/** `[^/?#]`: what a path segment holds. */
const segment = (c: number) => c !== SLASH && c !== QUESTION && c !== HASH;

/** A matcher's program: the template's parts compiled to steps. */
export type Program = readonly Step[];

/** Compiles the template's parts; expression `n` (in order) is saved in slots 2n and 2n + 1. */
export function compile(parts: readonly MatchPart[]): Program {
  const steps: Step[] = [];
  const at = () => steps.length;
  /** `test+` (greedy or lazy). */
  const plus = (test: (c: number) => boolean, lazy: boolean) => {
    const loop = at();
    steps.push({ op: "class", test });
    steps.push(lazy ? { op: "split", first: loop + 2, second: loop } : { op: "split", first: loop, second: loop + 2 });
  };
  /** `(?:lead test*)*` when `repeat`, else `(?:lead test*)?`; greedy. */
  const led = (lead: (c: number) => boolean, test: (c: number) => boolean, repeat: boolean) => {
    const start = at();
    const enter: Split = { op: "split", first: start + 1, second: -1 };
    steps.push(enter, { op: "class", test: lead });
    const more: Split = { op: "split", first: at() + 1, second: -1 };
    steps.push(more, { op: "class", test }, { op: "jump", to: start + 2 });
    more.second = repeat ? start : at();
    enter.second = at();
  };
  let group = 0;
  for (const part of parts) {
    if (part.literal !== undefined) {
      for (let i = 0; i < part.literal.length; i++) steps.push({ op: "char", code: part.literal.charCodeAt(i) });
      continue;
    }
    steps.push({ op: "save", slot: 2 * group });
    switch (part.operator) {
      case "+":
        plus(notLineEnd, !part.last);
        break;
      case "#":
        led((c) => c === HASH, notLineEnd, false);
        break;
      case ".":
        led(
          (c) => c === DOT,
          (c) => segment(c) && c !== DOT,
          true,
        );
        break;
      case "/":
        led((c) => c === SLASH, segment, true);
        break;
      case ";":
        led((c) => c === 0x3b, segment, true);
        break;
      case "?":
      case "&":
        led(
          (c) => c === QUESTION || c === AMPERSAND,
          (c) => c !== HASH,
          false,
        );
        break;
      default:
        plus(segment, false);
    }
    steps.push({ op: "save", slot: 2 * group + 1 });
    group++;
  }
  steps.push({ op: "match" });
  return steps;
}

type Slots = readonly number[];

/** The positions a thread saved, newest first: shared between threads, so a save costs one node. */
interface Saved {
  slot: number;
  position: number;
  before: Saved | undefined;
}

/**
 * Runs `program` on the whole of `input`: the bounds of each expression's text (slots
 * 2n, 2n + 1), or undefined when the input does not match. O(input length × program size).
 */
export function run(program: Program, input: string): Slots | undefined {
  // The generation a step was last added in: each step is added once per position, by the
  // way through the template that reached it first (which a backtracking engine prefers).
  const added = new Int32Array(program.length).fill(-1);
  let threads: number[] = [];
  let saves: (Saved | undefined)[] = [];
  /** Adds the thread at `pc`, following jumps, splits and saves to the steps that read a character. */
  const add = (
    pcs: number[],
    held: (Saved | undefined)[],
    generation: number,
    pc: number,
    saved: Saved | undefined,
    position: number,
  ): void => {
    if (added[pc] === generation) return;
    added[pc] = generation;
    const step = program[pc] as Step;
    switch (step.op) {
      case "jump":
        add(pcs, held, generation, step.to, saved, position);
        break;
      case "split":
        add(pcs, held, generation, step.first, saved, position);
        add(pcs, held, generation, step.second, saved, position);
        break;
      case "save":
        add(pcs, held, generation, pc + 1, { slot: step.slot, position, before: saved }, position);
        break;
      default:
        pcs.push(pc);
        held.push(saved);
    }
  };
  add(threads, saves, 0, 0, undefined, 0);
  for (let position = 0; position < input.length; position++) {
    if (threads.length === 0) return undefined;
    const code = input.charCodeAt(position);
    const next: number[] = [];
    const nextSaves: (Saved | undefined)[] = [];
    for (let t = 0; t < threads.length; t++) {
      const pc = threads[t] as number;
      const step = program[pc] as Step;
      if ((step.op === "char" && step.code === code) || (step.op === "class" && step.test(code)))
        add(next, nextSaves, position + 1, pc + 1, saves[t], position + 1);
      // A thread at "match" before the end fails: the whole URI must match.
    }
    threads = next;
    saves = nextSaves;
  }
  const winner = threads.findIndex((pc) => program[pc]?.op === "match");
  if (winner < 0) return undefined;
  const slots: number[] = [];
  for (let saved = saves[winner]; saved; saved = saved.before) slots[saved.slot] ??= saved.position;
  return slots;
}
