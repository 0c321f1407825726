import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

/**
 * One gateway writes one audit file. Each line's hash chains it to the line before as its
 * writer wrote it, so the lines of two processes appending to one file would read as
 * tampering. The writer holds `<file>.lock` (its process id and host) while the file is
 * open, and another gateway given the same file is refused, told which process holds it.
 * A lock left by a process of this machine that is gone (killed) is taken over. Answers
 * the lock's release.
 */
export function lockAuditFile(path: string): () => void {
  const lock = `${path}.lock`;
  const host = hostname();
  const mine = `${process.pid} ${host}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      return () => {
        // Only our own: a lock taken over after we were thought gone is not ours to remove.
        if (readOr(lock) === mine) unlinkSync(lock);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 3) throw error;
    }
    const held = readOr(lock);
    if (held === undefined) continue; // released meanwhile
    const [pid, holderHost = ""] = held.trim().split(" ");
    if (holderHost === host && !alive(Number(pid))) {
      unlinkSync(lock);
      continue;
    }
    throw new Error(
      `${path} is being written by another gateway (process ${pid}${holderHost === host ? "" : ` on ${holderHost}`}): one audit file has one writer, so that its chain of hashes holds. Give this gateway its own "audit" file, or serve every client from one gateway (--port); if no gateway writes it, remove ${lock}`,
    );
  }
}

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether a process of this machine runs (one of another user's counts: it cannot be signalled, yet it runs). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
