/** A benchmark figure: the median of several runs, with the spread. */
export interface Row {
  suite: string;
  name: string;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  /** The figure it must meet, e.g. ">= 20000" or "<= 12"; absent when it is only reported. */
  budget?: string;
  /** Whether the median meets the budget. */
  ok?: boolean;
}

export const median = (xs: readonly number[]) => percentile(xs, 50);

/** Nearest-rank percentile. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Summarises repeated measurements into a row, checking a budget like ">= 20000". */
export function row(suite: string, name: string, unit: string, samples: readonly number[], budget?: string): Row {
  const m = median(samples);
  const r: Row = { suite, name, unit, median: m, min: Math.min(...samples), max: Math.max(...samples), runs: samples.length };
  if (budget) {
    const [op, value] = budget.split(' ') as ['>=' | '<=', string];
    r.budget = budget;
    r.ok = op === '>=' ? m >= Number(value) : m <= Number(value);
  }
  return r;
}

/** A count as figures print it: 1,234,567. */
export const count = (n: number) => n.toLocaleString('en-US');

/** Milliseconds as seconds. */
export const seconds = (ms: number) => ms / 1000;
