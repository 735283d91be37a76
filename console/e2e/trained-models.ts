/**
 * Two reranker models as `npm run retrain` records them: trained on the training tests' small
 * world, the first beats retrieval's order on the curated suite and is promoted by the gate; the
 * second, trained on the same data, gains nothing over the first and is rejected.
 */
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import { trainingWorld } from '../../shared/training/fixture.ts';
import { CURATED_LAYER } from '../../shared/training/gate-findings.ts';
import { type RetrainOutcome, retrain } from '../../shared/training/retrain.ts';

/** POST /v1/admin/models's body for one outcome. */
const recorded = (outcome: Extract<RetrainOutcome, { trained: true }>, comparedWith: string | null) => ({
  model: outcome.model,
  confirmed: outcome.confirmed,
  comparedWith,
  evaluation: outcome.evaluation,
  promote: outcome.decision.promote,
  findings: outcome.decision.findings,
  reasons: outcome.decision.reasons,
});

/** Versions as `npm run retrain` names them: retrain-20261130T021500Z. */
const versionAt = (at: number) =>
  `retrain-${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;

export function trainedModels(now = Date.now()) {
  const { data, heldOut } = trainingWorld(40);
  // The team's curated suite too: the gain is measured on it, and the console says so.
  const evalQueries = [...heldOut, ...heldOut.map((q) => ({ ...q, layer: CURATED_LAYER }))];
  const train = (version: string, at: number, current: Extract<RetrainOutcome, { trained: true }>['model'] | null) => {
    const outcome = retrain({ data, evalQueries, current, settings: DEFAULT_LOOP_SETTINGS, version, now: at });
    if (!outcome.trained) throw new Error(outcome.reason);
    return outcome;
  };
  const first = train(versionAt(now - 7 * 86_400_000), now - 7 * 86_400_000, null);
  const second = train(versionAt(now), now, first.model);
  return { first: recorded(first, null), second: recorded(second, first.model.version) };
}
