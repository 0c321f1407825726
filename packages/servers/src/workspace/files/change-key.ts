import { lstat } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * What names one state of a path, the same on every node that looks at it (the nodes of a
 * cluster share the files): its inode, size and change times to the nanosecond; a path
 * that is gone, by the state of its directory, which its removal changed. Every node
 * watching the files publishes a change under this key, so the change reaches each
 * subscriber once (PublishOptions.key); two changes are two states, two keys.
 */
export async function changeKey(path: string): Promise<string> {
  try {
    const s = await lstat(path, { bigint: true });
    return `${path}@${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    try {
      const d = await lstat(dirname(path), { bigint: true });
      return `${path}@gone:${d.mtimeNs}:${d.ctimeNs}`;
    } catch {
      return `${path}@gone`;
    }
  }
}

/** The key of a change to the names in `directories`: their states, in a fixed order. */
export async function listChangeKey(directories: readonly string[]): Promise<string> {
  const keys = await Promise.all([...directories].sort().map(changeKey));
  return `list:${keys.join("|")}`;
}
