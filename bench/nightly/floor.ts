/**
 * The floor: the nightly job's own code (collector/jobs) run slice by slice in Node on a copy of
 * the same database through better-sqlite3, every statement timed. What it spends in SQLite is
 * what the same queries cost with nothing in between; the rest of its time is the job's
 * JavaScript (noise filter, attribution, mining) on V8 as in workerd.
 */
import Database from 'better-sqlite3';
import type { NightlySummary } from '../../shared/admin-api/nightly.ts';
import { TimedD1 } from './d1-over-sqlite.ts';

type RunNightly = (env: { DB: unknown }, now: number, options: { projects: string[]; maxSlices: number; budgetMs: number }) => Promise<NightlySummary>;

export interface FloorStage {
  name: string;
  slices: number;
  /** The stage as the job timed it (SQL and JavaScript). */
  ms: number;
  /** Of which in SQLite. */
  sqlMs: number;
  longestSliceMs: number;
}

export interface Floor {
  done: boolean;
  /** Where the run stands when it is not done. */
  stage: string | null;
  sqliteVersion: string;
  /** Wall time of the whole run, slices and the run's bookkeeping between them. */
  ms: number;
  stages: FloorStage[];
  /** Every distinct statement, per stage, with its calls and time. */
  statements: { stage: string; sql: string; calls: number; ms: number }[];
}

const BOOKKEEPING = /\bloop_(runs|settings)\b/;

/** Loaded at run time: the job is typed for the Workers runtime, this bench for Node. */
const JOB = new URL('../../collector/jobs/nightly.ts', import.meta.url).href;

export async function runFloor(file: string, projectId: string, now: number, capMs: number): Promise<Floor> {
  const { runNightly } = (await import(JOB)) as { runNightly: RunNightly };
  const db = new Database(file);
  const d1 = new TimedD1(db);
  const env = { DB: d1 };
  const longest = new Map<string, number>();
  const sqlMs = new Map<string, number>();
  try {
    // No slice yet: creates the run and says which stage comes first.
    let summary = await runNightly(env, now, { projects: [projectId], maxSlices: 0, budgetMs: Number.POSITIVE_INFINITY });
    const start = performance.now();
    while (!summary.done && performance.now() - start < capMs) {
      const stage = summary.runs[0]!.stage!;
      const before = summary.runs[0]!.stages.find((s) => s.name === stage)?.ms ?? 0;
      d1.label = stage;
      summary = await runNightly(env, now, { projects: [projectId], maxSlices: 1, budgetMs: Number.POSITIVE_INFINITY });
      const ms = summary.runs[0]!.stages.find((s) => s.name === stage)!.ms - before;
      longest.set(stage, Math.max(longest.get(stage) ?? 0, ms));
    }
    // Reading and saving the run between slices is the runner's, not the stage's.
    const statements = [...d1.times.values()].map((t) => ({
      stage: BOOKKEEPING.test(t.sql) ? 'run bookkeeping' : t.label,
      sql: t.sql,
      calls: t.calls,
      ms: t.ms,
    }));
    for (const s of statements) sqlMs.set(s.stage, (sqlMs.get(s.stage) ?? 0) + s.ms);
    return {
      done: summary.done,
      stage: summary.runs[0]!.stage,
      ms: performance.now() - start,
      sqliteVersion: (db.prepare('select sqlite_version() as v').get() as { v: string }).v,
      stages: summary.runs[0]!.stages.map((s) => ({
        name: s.name,
        slices: s.slices,
        ms: s.ms,
        sqlMs: sqlMs.get(s.name) ?? 0,
        longestSliceMs: longest.get(s.name) ?? 0,
      })),
      statements,
    };
  } finally {
    db.close();
  }
}
