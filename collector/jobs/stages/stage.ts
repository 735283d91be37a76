import type { LoopSettings } from '../../../shared/schema/settings.ts';
import type { RunRow } from '../../storage/loop-runs.ts';
import type { TOUCHED_KINDS } from '../../storage/schema/index.ts';

type TouchedKind = (typeof TOUCHED_KINDS)[number];

export interface StageContext {
  db: D1Database;
  projectId: string;
  night: string;
  now: number;
  /** The clock retention deletes by when not `now`: the real time, when `now` was asked for ahead of it. */
  purgeNow?: number;
  settings: LoopSettings;
  /** Where raw rows are archived (R2), when the Worker has the binding. */
  archive?: R2Bucket;
  run: RunRow;
  /** Traces per slice. */
  tracesPerSlice: number;
  /** When a run loads in bulk (deferring indexes): the fewest touched traces, and their least share of the table's rows. */
  bulk: { fromTraces: number; share: number };
}

export interface SliceResult {
  /** Where the next slice starts; null when the stage is done. */
  cursor: string | null;
  /** What the slice did, added up per stage in the run's report. */
  counts: Record<string, number>;
  /** What the slice decided, in words, shown beside the stage's counts in `GET /v1/admin/runs`. */
  note?: string;
  /** Computed once for the whole run and kept in it (merged into `run.state`). */
  state?: Record<string, unknown>;
}

/** One step of the night: called slice after slice until it returns a null cursor. */
export interface Stage {
  name: string;
  slice(ctx: StageContext, cursor: string | null): Promise<SliceResult>;
}

/** Traces one slice handles: small enough that a slice stays around a second at volume. */
export const TRACES_PER_SLICE = 2_000;
/**
 * A run touching at least this many traces, and as many as BULK_SHARE of the rows the table holds
 * for every project, builds the out-of-order indexes of aggregates and review items again once instead of updating them (a month
 * imported at once); a night's traffic (3 % of a month in the steady benchmark) updates them.
 */
export const BULK_FROM_TRACES = 10_000;
export const BULK_SHARE = 0.25;
/** The key a run's state carries when its assess stage decided to load in bulk: mining follows. */
export const BULK_LOAD_STATE = 'bulkLoad';

/**
 * SQL for the keys of the next slice: the run's touched keys of one kind after the cursor, with
 * the project as ?1, the night as ?2, the cursor as ?3 and the slice size as ?4. Statements of one
 * slice select their rows by it in one batch, instead of sending the keys back as a parameter.
 */
export const sliceKeysSql = (kind: TouchedKind) =>
  `select key from loop_touched where project_id = ?1 and night = ?2 and kind = '${kind}' and key > ?3 order by key limit ?4`;

/** The parameters `sliceKeysSql` reads. */
export const sliceParams = (ctx: StageContext, cursor: string | null, size = ctx.tracesPerSlice) => [ctx.projectId, ctx.night, cursor ?? '', size] as const;

/** The next slice of the run's touched keys of one kind after `cursor`. */
export async function touchedSlice(ctx: StageContext, cursor: string | null, kind: TouchedKind = 'trace', size = ctx.tracesPerSlice): Promise<string[]> {
  const { results } = await ctx.db
    .prepare('select key from loop_touched where project_id = ? and night = ? and kind = ? and key > ? order by key limit ?')
    .bind(ctx.projectId, ctx.night, kind, cursor ?? '', size)
    .all<{ key: string }>();
  return results.map((r) => r.key);
}

/** The cursor after a slice: its last key, or null when the slice was the last one. */
export const nextCursor = (ctx: StageContext, keys: readonly string[], size = ctx.tracesPerSlice): string | null => (keys.length < size ? null : keys.at(-1)!);
