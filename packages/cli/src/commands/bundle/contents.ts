/** One file of the archive: its path inside, and its size. */
export interface Entry {
  path: string;
  bytes: number;
}

/** Folders whose files are one line each in the list, not one line a file. */
const PACKAGE = /^(server\/node_modules\/(?:@[^/]+\/)?[^/]+)\//;

/**
 * What went into a bundle, a line a file, for whoever checks it before handing it out:
 * each file's path and size, what built the server's file, which files --include brought
 * (so anything unexpected shows), and each native package as one line.
 */
export function contentsList(entries: Entry[], included: readonly string[]): string {
  const fromInclude = new Set(included.map((path) => `server/${path}`));
  const lines: string[] = [];
  const packages = new Map<string, { files: number; bytes: number }>();
  for (const { path, bytes } of entries) {
    const pkg = PACKAGE.exec(path)?.[1];
    if (pkg) {
      const seen = packages.get(pkg) ?? { files: 0, bytes: 0 };
      packages.set(pkg, { files: seen.files + 1, bytes: seen.bytes + bytes });
      continue;
    }
    const what =
      path === "server/index.js"
        ? ": the server and every package it imports, built into one file"
        : fromInclude.has(path)
          ? " (--include)"
          : "";
    lines.push(`  ${path} ${size(bytes)}${what}`);
  }
  for (const [pkg, { files, bytes }] of packages)
    lines.push(`  ${pkg}/ ${size(bytes)}, ${files} files: a native package, built for ${process.platform}`);
  return lines.join("\n");
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${Math.ceil(bytes / 1024)} KB`);
