/**
 * The nightly job at volume: 1M traces (10 chunks each over 100k distinct chunks) and ~5M events
 * generated straight into a throwaway local D1's SQLite file, then the whole job under `wrangler
 * dev` through POST /v1/admin/nightly until done: time per stage and in all (budget 60 s), the
 * longest slice, and the peak memory of the Worker's workerd process (budget 512 MB). The floor
 * is the same job code run in Node on a copy of the same file through better-sqlite3, in the same
 * run: per stage, its time in SQLite and in JavaScript, and the statements that cost the most.
 *
 *   npm run bench -- nightly                        (full scale; several minutes)
 *   BENCH_NIGHTLY_SCALE=0.1 npm run bench -- nightly (a tenth of everything, to iterate)
 *
 * BENCH_NIGHTLY_CAP_S (600) stops each of the two runs after that long, reporting how far it got
 * (BENCH_NIGHTLY_FLOOR_CAP_S, the floor's alone);
 * BENCH_NIGHTLY_KEEP=1 keeps the temporary folder with both database files. BENCH_NIGHTLY_DATA=<dir>
 * keeps the freshly generated database in that folder (one per scale) and starts later runs from a
 * copy of it, migrated to the current schema, instead of generating it again.
 * BENCH_NIGHTLY_LIVE_HEAP_MS=<ms> also forces a collection in the Worker's isolate that often and
 * reads its live heap, per call (the collections cost time: not for timing runs).
 */
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SLICE_QUERY_RESERVE } from '../collector/jobs/query-budget.ts';
import { NO_RATE_LIMITS } from '../scripts/local-collector.ts';
import { utcDay } from '../shared/time.ts';
import { BENCH_PROJECT, generatedDatabase } from './nightly/database.ts';
import { type DrivenRun, driveNightly, heapRows, startBenchDev } from './nightly/drive.ts';
import { type Floor, runFloor } from './nightly/floor.ts';
import type { Generated } from './nightly/generate.ts';
import { CAP_MS, FLOOR_CAP_MS, inBenchFolder } from './nightly/options.ts';
import { type Irreducible, type Mined, probeSqlite, probeWorker } from './nightly/probe.ts';
import { ITEM_ORDERS } from './nightly/probe-rows.ts';
import { count, type Row, row, seconds } from './stats.ts';

const SUITE = 'nightly';
/** Statements listed on their own in the floor: the costliest ones. */
const TOP_STATEMENTS = 10;

const log = (line: string) => console.error(`  nightly: ${line}`);

/** "insert into trace_stats", "select … from feedback_events": what a statement is, in a few words. */
function describe(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  const head = s.match(/^(insert (?:or ignore )?into \w+|update \w+|delete from \w+)/i);
  if (head) return head[1]!;
  return `${s.startsWith('with') ? 'with' : 'select'} … from ${s.match(/ from (\w+)/i)?.[1] ?? '?'}`;
}

export async function nightlyBench(): Promise<Row[]> {
  return inBenchFolder('rf-nightly-', log, async (dir) => {
    const persistTo = join(dir, 'state');
    // The month ends, and so arrives, on the UTC day before today's: the archive writes whole days
    // of arrival before today, so the run archives all of it at any hour (a month received in the
    // 24 hours before the run would be archived only as far as it came before midnight).
    const monthEnd = Date.parse(utcDay(Date.now()));
    const { data, file, adminKey } = await generatedDatabase({ persistTo, receipt: 'imported', now: monthEnd, log });
    const sizeMb = statSync(file).size / 2 ** 20;
    log(
      `${count(data.traces)} traces, ${count(data.chunkRows)} chunk rows, ${count(data.chunkTexts)} chunk texts, ${count(data.events)} events, ${count(data.sessions)} sessions: ` +
        `${Math.round(sizeMb)} MB in ${seconds(data.fillMs).toFixed(1)} s + ${seconds(data.indexMs).toFixed(1)} s of indexes`,
    );
    const floorFile = join(dir, 'floor.sqlite');
    // The latest migration may still sit in the write-ahead log: fold it into the file before copying it.
    const source = new Database(file);
    source.pragma('wal_checkpoint(TRUNCATE)');
    source.close();
    copyFileSync(file, floorFile);

    // "info": a handful of long calls, and a failed one then comes with what the Worker logged before it.
    const server = await startBenchDev({ persistTo, vars: NO_RATE_LIMITS, logLevel: 'info' });
    let run: DrivenRun;
    try {
      run = await driveNightly(server, adminKey, CAP_MS, log, join(persistTo, 'wrangler.log'));
    } finally {
      await server.stop();
    }
    log(`the Worker's process: ${run.workerCmd.slice(0, 160)}`);
    log('the work any design pays: every event read once, a row written per trace, from a Worker under wrangler dev…');
    const mined = minedBy(run, data.traces);
    const worker = await probeWorker(dir, persistTo, BENCH_PROJECT, mined);

    log('the floor: the same job in Node on better-sqlite3…');
    const floor = await runFloor(floorFile, BENCH_PROJECT, Date.now(), FLOOR_CAP_MS);
    log('the work any design pays, in SQLite alone…');
    const irreducible: Irreducible = { ...worker, ...probeSqlite(floorFile, BENCH_PROJECT, mined) };
    report(run, floor, data.traces, data.events);
    return rows(data, sizeMb, run, floor, irreducible, mined);
  });
}

/** Where the time goes, side by side: under wrangler dev, and the floor's SQLite and JavaScript. */
function report(run: DrivenRun, floor: Floor, traces: number, events: number) {
  const floorOf = new Map(floor.stages.map((s) => [s.name, s]));
  console.error(`\nnightly job at ${count(traces)} traces / ${count(events)} events, per stage (ms); the floor on SQLite ${floor.sqliteVersion}:`);
  const runOf = new Map(run.stages.map((s) => [s.name, s]));
  const names = [...new Set([...runOf.keys(), ...floorOf.keys()])];
  console.table(
    names.map((name) => {
      const s = runOf.get(name) ?? { slices: 0, ms: 0, counts: {} };
      const f = floorOf.get(name);
      return {
        stage: name,
        slices: s.slices,
        'wrangler dev': s.ms,
        'per slice': s.slices ? Math.round(s.ms / s.slices) : '',
        'floor (Node)': f?.ms,
        'floor SQLite': Math.round(f?.sqlMs ?? 0),
        'floor longest slice': f?.longestSliceMs,
        counts: Object.entries(s.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      };
    }),
  );
  console.error('costliest statements in the floor:');
  for (const s of costliest(floor)) console.error(`  ${s.stage} ×${s.calls}: ${Math.round(s.ms)} ms  ${s.sql.replace(/\s+/g, ' ').slice(0, 240)}`);
}

/** How the (item, trace) rows arrive, in the rows' names. */
const ITEM_ORDER = { slices: 'in the order slices of traces raise them', sorted: 'sorted by item' } as const;

const costliest = (floor: Floor) => [...floor.statements].sort((a, b) => b.ms - a.ms).slice(0, TOP_STATEMENTS);

/** The volume of (item, trace) rows the run mined (so far, if it was cut), for the probe to write as many. */
function minedBy(run: DrivenRun, traces: number): Mined {
  const counts = run.stages.find((s) => s.name === 'mine')?.counts ?? {};
  return { traces, candidates: counts.candidates ?? 0, items: Math.max(1, counts.items ?? 0) };
}

function rows(data: Generated, sizeMb: number, run: DrivenRun, floor: Floor, least: Irreducible, mined: Mined): Row[] {
  const one = (name: string, unit: string, value: number, budget?: string) => row(SUITE, name, unit, [value], budget);
  const jobMs = run.callsMs.reduce((a, b) => a + b, 0);
  const calls = `${run.callsMs.length} POST /v1/admin/nightly`;
  const single = run.stages.filter((s) => s.slices === 1).sort((a, b) => b.ms - a.ms)[0];
  const perSlice = run.stages.filter((s) => s.slices > 1).sort((a, b) => b.ms / b.slices - a.ms / a.slices)[0];
  const mostQueries = [...run.stages].sort((a, b) => (b.sliceQueriesMax ?? 0) - (a.sliceQueriesMax ?? 0))[0];
  const floorLongest = [...floor.stages].sort((a, b) => b.longestSliceMs - a.longestSliceMs)[0];
  const stopped = (done: boolean, stage: string | null, stages: readonly { name: string; slices: number }[], capMs = CAP_MS) =>
    done ? '' : `, NOT DONE: cut at ${seconds(capMs)} s in ${stage} after ${stages.find((s) => s.name === stage)?.slices ?? 0} slices`;
  const sqlite = `floor (SQLite ${floor.sqliteVersion})`;
  return [
    one(
      `generate ${count(data.traces)} traces, ${count(data.chunkRows)} chunk rows, ${count(data.chunkTexts)} chunk texts, ${count(data.events)} events (not in the budget)`,
      's',
      seconds(data.fillMs),
    ),
    one('generate: rebuilding the indexes (not in the budget)', 's', seconds(data.indexMs)),
    one('database file', 'MB', sizeMb),
    ...run.stages.map((s) => one(`stage ${s.name}, ${count(s.slices)} slices`, 's', seconds(s.ms))),
    one('all stages, as the job timed them', 's', seconds(run.stages.reduce((a, s) => a + s.ms, 0))),
    one(`whole job: ${calls}${stopped(run.done, run.stage, run.stages)}`, 's', seconds(jobMs), '<= 60'),
    ...(single ? [one(`longest one-slice stage (${single.name})`, 's', seconds(single.ms))] : []),
    ...(perSlice ? [one(`longest mean slice (${perSlice.name}, ${count(perSlice.slices)} slices)`, 's', seconds(perSlice.ms / perSlice.slices))] : []),
    ...(mostQueries
      ? [
          one(
            `most D1 queries in one slice (${mostQueries.name}; each slice starts only with this many left of the invocation's)`,
            'queries',
            mostQueries.sliceQueriesMax ?? 0,
            `<= ${SLICE_QUERY_RESERVE - 1}`,
          ),
        ]
      : []),
    one("RSS of the Worker's workerd process before the first call", 'MB', run.idleRssMb),
    one("peak RSS of the Worker's workerd process (sampled every 100 ms)", 'MB', run.peakRssMb, '<= 512'),
    one(
      `peak RSS of the Worker's workerd process (VmHWM, since start${run.runtimes > 1 ? `; ${run.runtimes} processes, one after another` : ''})`,
      'MB',
      run.hwmMb,
    ),
    ...heapRows(SUITE, '', run),
    ...floor.stages.map((s) => one(`${sqlite}: stage ${s.name}, in SQLite`, 's', seconds(s.sqlMs))),
    one(
      `${sqlite}: all stages, in SQLite${stopped(floor.done, floor.stage, floor.stages, FLOOR_CAP_MS)}`,
      's',
      seconds(floor.stages.reduce((a, s) => a + s.sqlMs, 0)),
    ),
    one(`${sqlite}: all stages, SQLite and the job's JavaScript`, 's', seconds(floor.stages.reduce((a, s) => a + s.ms, 0))),
    ...(floorLongest ? [one(`${sqlite}: longest slice (${floorLongest.name})`, 's', seconds(floorLongest.longestSliceMs))] : []),
    ...costliest(floor).map((s) => one(`${sqlite} statement: ${s.stage} · ${describe(s.sql)} ×${count(s.calls)}`, 's', seconds(s.ms))),
    one(
      `least any design pays, wrangler dev: every event read once into a Worker (${count(least.workerReadRows)} rows, 10,000 a statement)`,
      's',
      seconds(least.workerReadMs),
    ),
    one(
      `least any design pays, wrangler dev: a row per trace written from a Worker (${count(data.traces)}, 2,000 a statement)`,
      's',
      seconds(least.workerWriteMs),
    ),
    ...ITEM_ORDERS.map((order) =>
      one(
        `least any design pays, wrangler dev: a row per (review item, trace) mined written from a Worker (${count(mined.candidates)} over ${count(mined.items)} items, 2,000 a statement), ${ITEM_ORDER[order]}`,
        's',
        seconds(least.workerItemMs[order]),
      ),
    ),
    one(`least any design pays, ${sqlite}: every event read once`, 's', seconds(least.sqliteReadMs)),
    one(`least any design pays, ${sqlite}: one pass grouping every event by trace`, 's', seconds(least.sqliteGroupMs)),
    one(`least any design pays, ${sqlite}: a row per trace written (${count(data.traces)}, one transaction)`, 's', seconds(least.sqliteWriteMs)),
    ...ITEM_ORDERS.map((order) =>
      one(
        `least any design pays, ${sqlite}: the same (review item, trace) rows, 2,000 a transaction, ${ITEM_ORDER[order]}`,
        's',
        seconds(least.sqliteItemMs[order]),
      ),
    ),
  ];
}
