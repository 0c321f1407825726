// What the runner reads about a server process from /proc (Linux): CPU time and RSS.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

let ticks;
/** Clock ticks per second (USER_HZ), for /proc/<pid>/stat. */
function clockTicks() {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** Whether the kernel keeps per-thread run time in nanoseconds (CONFIG_SCHEDSTATS). */
const hasSchedstat = existsSync("/proc/self/schedstat");

/**
 * User + system CPU seconds the process has used so far: the sum of its threads' run time
 * in nanoseconds (/proc/<pid>/task/<tid>/schedstat) where the kernel keeps it, otherwise
 * utime + stime in clock ticks (10 ms each: coarse for a window of a second or two).
 */
export function cpuSeconds(pid) {
  if (!hasSchedstat) return tickSeconds(pid);
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1e9;
}

function tickSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the full line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** Resident set size in bytes (VmRSS). */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}
