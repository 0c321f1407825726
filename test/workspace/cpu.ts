import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of a process and everything it started, read from /proc (Linux): to prove that
 * a stopped SQL statement really stopped, whatever runs it (a thread, a child process).
 */

const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

interface Stat {
  ppid: number;
  pgrp: number;
  ticks: number;
}

function statOf(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: the fields start after its ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // Gone meanwhile.
  }
}

function allProcesses(): Map<number, Stat> {
  const out = new Map<number, Stat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) out.set(Number(name), stat);
  }
  return out;
}

/** `pid` and its descendants, alive now. */
export function processTree(pid: number): number[] {
  const all = allProcesses();
  const tree = all.has(pid) ? [pid] : [];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, stat] of all) if (stat.ppid === tree[i]) tree.push(child);
  }
  return tree;
}

/** CPU seconds used so far by `pid` and its living descendants. */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + (statOf(p)?.ticks ?? 0), 0) / TICKS;
}

/** The processes of a process group still alive. */
export function groupMembers(pgrp: number): number[] {
  return [...allProcesses()].filter(([, stat]) => stat.pgrp === pgrp).map(([pid]) => pid);
}

/** CPU seconds the tree uses over the next `ms` (the wait is the measurement). */
export async function cpuOver(pid: number, ms: number): Promise<number> {
  const before = treeCpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return treeCpuSeconds(pid) - before;
}
