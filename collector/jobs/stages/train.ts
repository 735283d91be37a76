import { daysBetween, utcDay } from '../../../shared/time.ts';
import { retrain } from '../../../shared/training/retrain.ts';
import { consolidate } from '../../../shared/training/train.ts';
import { recordForgetting } from '../../storage/erasure-memory.ts';
import { LATER_NIGHT_DONE_SQL } from '../../storage/loop-runs.ts';
import { latestTraining, newSinceLastModel, servedModel } from '../../storage/models.ts';
import { type ChunkTexts, confirmedExamples, evalQueries, trainingData } from '../../storage/training-data.ts';
import { startTrainingRead } from '../../storage/training-reads.ts';
import type { SliceResult, Stage } from './stage.ts';

/**
 * Retrains on the schedule (seed 000: in batches, never per event) when there are new confirmed
 * examples, lets the eval gate decide, and records the model either way. Inside the job, so a
 * project on Cloudflare closes its loop with nothing else running; with `retrainEveryDays` 0 it
 * leaves retraining to `npm run retrain`.
 */
export const train: Stage = {
  name: 'train',
  async slice({ db, projectId, night, now, settings }): Promise<SliceResult> {
    if (settings.retrainEveryDays === 0) return { cursor: null, counts: { outsideTheJob: 1 }, note: 'retraining runs outside the job (retrainEveryDays 0)' };
    // A missed night run after a later one (`?at=`): trained now, its model would be dated and
    // promoted under its older night, after what the later nights served, from today's answers.
    // The next night trains on them in its turn.
    if (await db.prepare(LATER_NIGHT_DONE_SQL).bind(projectId, night).first())
      return { cursor: null, counts: { laterNightDone: 1 }, note: 'left to the next night: a later night is done' };
    const last = await latestTraining(db, projectId);
    // Counted in nights, not instants: a run reaching this stage in an earlier call of its night than
    // last week's did is still due.
    if (last && daysBetween(utcDay(last.createdAt), night) < settings.retrainEveryDays) return { cursor: null, counts: { notDue: 1 } };
    // By the real clock, as erasures note when they finish and reviewers' answers are stamped: a
    // model of data read before one forgets its questions, and an answer given after is new to it,
    // whichever night (`now`) the model is dated.
    const dataReadAt = await startTrainingRead(db, projectId);
    const confirmed = await confirmedExamples(db, projectId);
    const examples = consolidate(confirmed).length;
    if (!(await newSinceLastModel(db, projectId, last, examples))) return { cursor: null, counts: { nothingNew: 1 } };
    // Too few examples: retrain refuses before it looks at anything else, so the month's
    // engagement and the eval sets' candidates are read only when it can train.
    const enough = examples >= settings.trainingMinConfirmed;
    // The training lists and the eval sets share most chunks: each text is read once for both.
    const texts: ChunkTexts = new Map();
    const data = enough ? await trainingData(db, projectId, now, confirmed, texts) : { confirmed, lists: [], engagement: [], queryEngagement: [] };
    const served = await servedModel(db, projectId);
    const current = served.model;
    const outcome = retrain({ data, evalQueries: enough ? await evalQueries(db, projectId, texts) : [], current, settings, version: `nightly-${night}`, now });
    if (!outcome.trained) return { cursor: null, counts: { refused: 1 }, note: `not trained: ${outcome.reason}` };
    const recorded = await recordForgetting(db, projectId, {
      model: outcome.model,
      trainedBy: 'nightly',
      confirmed: outcome.confirmed,
      comparedWith: served.version,
      evaluation: outcome.evaluation,
      promote: outcome.decision.promote,
      findings: outcome.decision.findings,
      reasons: outcome.decision.reasons,
      at: now,
      dataReadAt,
    });
    // An admin served another model while this one trained: next night trains against that.
    if (recorded.outcome === 'stale')
      return {
        cursor: null,
        counts: { stale: 1 },
        note: `${outcome.model.version} not recorded: users got ${recorded.current ?? "retrieval's order"} meanwhile`,
      };
    if (recorded.outcome === 'exists') return { cursor: null, counts: { exists: 1 }, note: `${outcome.model.version} was stored already` };
    return {
      cursor: null,
      counts: { trained: 1, promoted: outcome.decision.promote ? 1 : 0, confirmed: outcome.confirmed },
      note: `${outcome.model.version} ${outcome.decision.promote ? 'promoted' : 'rejected'}: ${outcome.decision.reasons.join('; ')}${
        served.unreadable ? ` (the served ${served.version} cannot be read, ${served.unreadable}: compared with retrieval's order)` : ''
      }`,
    };
  },
};
