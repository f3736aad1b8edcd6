// What the UI benchmarks share: order statistics of a run's figures, their printing, and waiting
// for a painted frame in the page.

/** Median, p95, min and max (nearest-rank) of `values`, with their count. */
export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p95: at(0.95), min: sorted[0], max: sorted.at(-1), n: sorted.length };
}

/** A duration in milliseconds, to a tenth. */
export const ms = (v) => `${v.toFixed(1)} ms`;

/** A Markdown table row: `label`, then the median, p95 and max of `values` in ms. */
export function msRow(label, values) {
  const s = stats(values);
  return `| ${label} | ${ms(s.median)} | ${ms(s.p95)} | ${ms(s.max)} |`;
}

/** Resolves once a frame has been painted after whatever is pending (rAF, then a task). */
export const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

/** The whole number given as `name` on the command line (`--runs 10`), or `fallback`; at least `min`. */
export function intOption(argv, name, fallback, min = 1) {
  const at = argv.indexOf(name);
  const value = at === -1 ? fallback : Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} takes a whole number of at least ${min}`);
  return value;
}

