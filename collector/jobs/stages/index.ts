import { chunks, days, retrievals, sessions } from './aggregates.ts';
import { archive } from './archive.ts';
import { archiveErasures } from './archive-erasures.ts';
import { assess } from './assess.ts';
import { corrections } from './corrections.ts';
import { documents } from './documents.ts';
import { evals } from './evals.ts';
import { finish } from './finish.ts';
import { health } from './health.ts';
import { mine } from './mine.ts';
import { prepare } from './prepare.ts';
import { queue } from './queue.ts';
import { retention } from './retention.ts';
import type { Stage } from './stage.ts';
import { train } from './train.ts';

export type { SliceResult, Stage, StageContext } from './stage.ts';
export { BULK_FROM_TRACES, BULK_SHARE, TRACES_PER_SLICE } from './stage.ts';

/** The night's stages, in order. */
export const STAGES: readonly Stage[] = [
  prepare,
  assess,
  mine,
  corrections,
  retrievals,
  chunks,
  days,
  sessions,
  documents,
  queue,
  evals,
  train,
  health,
  archive,
  archiveErasures,
  retention,
  finish,
];
