/** What both nightly suites read from the environment, and the throwaway folder each works in. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decimalNumber, wholeNumber } from '../../scripts/cli.ts';

// Numbers are read as the commands read theirs: `1e3`, `0x10`, ` 5` or an empty value refused, naming the setting.
/** Share of the volume, (0, 1]: 0.1 to iterate. */
export const SCALE = decimalNumber('BENCH_NIGHTLY_SCALE', process.env.BENCH_NIGHTLY_SCALE ?? '1', 0.001, 1);
const seconds = (name: string, fallback: number) => wholeNumber(name, process.env[name] ?? String(fallback), 1, 86_400, 'seconds') * 1000;
/** A run stops starting slices after this long: a job far over budget would otherwise run for hours. */
export const CAP_MS = seconds('BENCH_NIGHTLY_CAP_S', 600);
/** The floor's own cap, when only the Worker's run is wanted in full (its time and memory). */
export const FLOOR_CAP_MS = seconds('BENCH_NIGHTLY_FLOOR_CAP_S', CAP_MS / 1000);
/**
 * With BENCH_NIGHTLY_LIVE_HEAP_MS=<ms>, the Worker's heap is also read right after a forced
 * collection that often: its live data, per call. Off by default (or 0), because collections cost time.
 */
export const LIVE_HEAP_MS = wholeNumber('BENCH_NIGHTLY_LIVE_HEAP_MS', process.env.BENCH_NIGHTLY_LIVE_HEAP_MS ?? '0', 0, 3_600_000, 'ms') || undefined;
/** Where a generated database is kept for later runs at the same scale. */
export const DATA_DIR = process.env.BENCH_NIGHTLY_DATA;

/**
 * Runs `work` in a new temporary folder, removed afterwards unless BENCH_NIGHTLY_KEEP is set or
 * the work failed: then it stays for a look (wrangler's log file, the databases).
 */
export async function inBenchFolder<T>(prefix: string, log: (line: string) => void, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let failed = false;
  try {
    return await work(dir);
  } catch (err) {
    failed = true;
    log(`failed: kept ${dir}`);
    throw err;
  } finally {
    if (process.env.BENCH_NIGHTLY_KEEP) log(`kept ${dir}`);
    else if (!failed) rmSync(dir, { recursive: true, force: true });
  }
}
