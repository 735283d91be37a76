import { env } from 'cloudflare:workers';
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import { utcDay } from '../../shared/time.ts';
import type { Stage, StageContext } from '../jobs/stages/stage.ts';
import type { RunRow } from '../storage/loop-runs.ts';

/** What a stage's slice is given when a test calls it alone: the local D1, default settings, a run not yet saved. */
export const stageContext = (projectId: string, now: number, overrides: Partial<StageContext> = {}): StageContext => ({
  db: env.DB,
  projectId,
  night: utcDay(now),
  now,
  settings: DEFAULT_LOOP_SETTINGS,
  run: {} as RunRow,
  tracesPerSlice: 2_000,
  bulk: { fromTraces: 1_000_000, share: 1 },
  ...overrides,
});

/** A stage's slices, one after another, until it is done. */
export async function sliceUntilDone(stage: Stage, ctx: StageContext) {
  let cursor: string | null = null;
  do cursor = (await stage.slice(ctx, cursor)).cursor;
  while (cursor !== null);
}
