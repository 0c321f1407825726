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

// Two-sided 97.5% quantiles of Student's t for 1…30 degrees of freedom (beyond: the normal 1.96).
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The mean with its 95% confidence interval (Student's t); no interval from fewer than 2 values. */
export function meanCI(values) {
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, low: Number.NaN, high: Number.NaN, n };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  const half = (T975[n - 2] ?? 1.96) * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half, n };
}

/**
 * The ratio of two implementations measured in the same rounds (paired: a[i] and b[i]
 * share round i, so drift between rounds cancels): the geometric mean of a[i] / b[i] with
 * its 95% confidence interval, computed on the logarithms.
 */
export function ratioCI(a, b) {
  const logs = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] > 0 && b[i] > 0) logs.push(Math.log(a[i] / b[i]));
  }
  const ci = meanCI(logs);
  if (!ci) return null;
  return { ratio: Math.exp(ci.mean), low: Math.exp(ci.low), high: Math.exp(ci.high), n: ci.n };
}

/** The median proper (the mean of the two middle values for an even count) of sorted values. */
function middle(sorted) {
  const n = sorted.length;
  return n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialCdf(k, n) {
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= (n - i + 1) / i;
    sum += term;
  }
  return sum;
}

/**
 * The median of `values` with a distribution-free interval: order statistics x(k) and
 * x(n−k+1) with k the largest for which the interval holds the true median with at least
 * 95% probability (binomial). Below 6 values no such k exists: the interval is then min–max
 * and `coverage` says how sure it is.
 */
export function medianCI(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return null;
  let k = 1;
  while (k + 1 <= n / 2 && 1 - 2 * binomialCdf(k, n) >= 0.95) k++;
  const coverage = n === 1 ? 0 : 1 - 2 * binomialCdf(k - 1, n);
  return { median: middle(sorted), low: sorted[k - 1], high: sorted[n - k], n, coverage };
}

/**
 * Two implementations measured in the same windows (paired: a[i] and b[i] share window
 * round i): the median of the ratios a[i] / b[i] with its 95% interval (medianCI), and the
 * ratios themselves.
 */
export function pairedRatio(a, b) {
  const ratios = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] > 0 && b[i] > 0) ratios.push(a[i] / b[i]);
  const ci = medianCI(ratios);
  if (!ci) return null;
  return { ratio: ci.median, low: ci.low, high: ci.high, n: ci.n, coverage: ci.coverage, rounds: ratios };
}
