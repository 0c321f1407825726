// Small statistics helpers shared by the runner and the clients.

/** The median (the lower middle one for an even count, so it is always a measured value). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The p-th percentile (0–100) of an already sorted array, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Median with min–max over rounds. */
export function summarize(values) {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return null;
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), rounds: xs };
}
