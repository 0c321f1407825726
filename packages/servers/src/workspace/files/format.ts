/** 1536 -> "1.5 KiB": sizes for people. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} bytes`;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The note that ends an answer cut short. */
export const truncatedNote = (what: string, limit: number, hint: string) =>
  `[truncated: more than ${limit} ${what}; ${hint}]`;
