/** What both nightly suites read from the environment, and the throwaway folder each works in. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decimalNumber, wholeNumber } from '../../scripts/cli.ts';

/** A setting's number, read as the commands read theirs (`1e3`, `0x10`, ` 5` refused, naming it); `fallback` when unset. */
export const numberSetting = (name: string, given: string | undefined, fallback: number, read: (name: string, given: string) => number): number =>
  given === undefined ? fallback : read(name, given);

const scaleArg = process.argv.find((a) => a.startsWith('--scale='))?.slice('--scale='.length);
/** Share of the volume, (0, 1]: 0.1 to iterate. */
export const SCALE = numberSetting(scaleArg === undefined ? 'BENCH_NIGHTLY_SCALE' : '--scale', scaleArg ?? process.env.BENCH_NIGHTLY_SCALE, 1, (name, given) =>
  decimalNumber(name, given, 0.001, 1),
);
/** A run stops starting slices after this long: a job far over budget would otherwise run for hours. */
export const CAP_MS =
  numberSetting('BENCH_NIGHTLY_CAP_S', process.env.BENCH_NIGHTLY_CAP_S, 600, (name, given) => wholeNumber(name, given, 1, 86_400, 'seconds')) * 1000;
/**
 * With BENCH_NIGHTLY_LIVE_HEAP_MS=<ms>, the Worker's heap is also read right after a forced
 * collection that often: its live data, per call. Off by default (or 0), because collections cost time.
 */
export const LIVE_HEAP_MS =
  numberSetting('BENCH_NIGHTLY_LIVE_HEAP_MS', process.env.BENCH_NIGHTLY_LIVE_HEAP_MS, 0, (name, given) => wholeNumber(name, given, 0, 3_600_000, 'ms')) ||
  undefined;
/** Where a generated database is kept for later runs at the same scale. */
export const DATA_DIR = process.env.BENCH_NIGHTLY_DATA;

/**
 * Runs `work` in a new temporary folder, removed afterwards unless BENCH_NIGHTLY_KEEP is set or
 * the work failed: then it stays for a look (wrangler's log file, the databases).
 */
export async function inBenchFolder<T>(prefix: string, log: (line: string) => void, work: (dir: string) => Promise<T>): Promise<T> {
  if (!(SCALE > 0 && SCALE <= 1)) throw new Error(`BENCH_NIGHTLY_SCALE must be in (0, 1]: ${SCALE}`);
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
