import type { LoopSettings } from '../../../shared/schema/settings.ts';
import type { RunRow } from '../../storage/loop-runs.ts';

export interface StageContext {
  db: D1Database;
  projectId: string;
  night: string;
  now: number;
  settings: LoopSettings;
  run: RunRow;
  /** Traces per slice. */
  tracesPerSlice: number;
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

/** Traces one slice handles: small enough that a slice stays well under a second at volume. */
export const TRACES_PER_SLICE = 1_000;

/** The next slice of the run's touched keys of one kind after `cursor`. */
export async function touchedSlice(
  ctx: StageContext,
  cursor: string | null,
  kind: 'trace' | 'chunk' | 'session' | 'day' = 'trace',
  size = ctx.tracesPerSlice,
): Promise<string[]> {
  const { results } = await ctx.db
    .prepare('select key from loop_touched where project_id = ? and night = ? and kind = ? and key > ? order by key limit ?')
    .bind(ctx.projectId, ctx.night, kind, cursor ?? '', size)
    .all<{ key: string }>();
  return results.map((r) => r.key);
}

/** The cursor after a slice: its last key, or null when the slice was the last one. */
export const nextCursor = (ctx: StageContext, keys: readonly string[], size = ctx.tracesPerSlice): string | null => (keys.length < size ? null : keys.at(-1)!);
