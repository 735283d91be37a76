/**
 * Two reranker models as `npm run retrain` records them: trained on the training tests' small
 * world, the first beats retrieval's order on the curated suite and is promoted by the gate; the
 * second, trained on the same data, gains nothing over the first and is rejected.
 */

import { modelRecord, retrainVersion } from '../../scripts/retrain/retrain-remote.ts';
import type { RerankerModel } from '../../shared/reranker/model.ts';
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import { trainingWorld } from '../../shared/training/fixture.ts';
import { CURATED_LAYER } from '../../shared/training/gate-findings.ts';
import { retrain } from '../../shared/training/retrain.ts';

export function trainedModels(now = Date.now()) {
  const { data, heldOut } = trainingWorld(40);
  // The team's curated suite too: the gain is measured on it, and the console says so.
  const evalQueries = [...heldOut, ...heldOut.map((q) => ({ ...q, layer: CURATED_LAYER }))];
  const train = (version: string, at: number, current: RerankerModel | null) => {
    const outcome = retrain({ data, evalQueries, current, settings: DEFAULT_LOOP_SETTINGS, version, now: at });
    if (!outcome.trained) throw new Error(outcome.reason);
    return outcome;
  };
  const first = train(retrainVersion(now - 7 * 86_400_000), now - 7 * 86_400_000, null);
  const second = train(retrainVersion(now), now, first.model);
  return { first: modelRecord(first, null), second: modelRecord(second, first.model.version) };
}
