/**
 * What the eval gate found, as data: stored with each model so the console can say it in the
 * reader's language. `reasonOf` says it in English, for logs, reports and the API's `reasons`.
 */
import * as v from 'valibot';
import { label } from '../schema/common.ts';

const figure = () => v.pipe(v.number(), v.finite());
const count = () => v.pipe(v.number(), v.safeInteger(), v.minValue(0));
/** The eval layer of the team's curated questions (`PUT /v1/admin/eval-suite/:queryId`). */
export const CURATED_LAYER = 'curated';
/** `curated`: the gain was measured on the curated layer alone (gate.ts `decidesOnCurated`); absent, on every eval query. */
const basis = () => v.optional(v.literal(CURATED_LAYER));

/** Strict: a finding is only ever taken in (`POST /v1/admin/models`), so a misspelt field is refused, naming it, not dropped. */
export const GateFindingSchema = v.variant('kind', [
  /** Too few judged eval queries for any verdict. */
  v.strictObject({ kind: v.literal('too_few_queries'), queries: count(), needed: count() }),
  /** The overall nDCG@5 gain is below the minimum. */
  v.strictObject({ kind: v.literal('gain_too_small'), gain: figure(), minimum: figure(), basis: basis() }),
  /** The gain is large enough but not sure: the paired t test did not reach `needed`. */
  v.strictObject({ kind: v.literal('gain_not_sure'), gain: figure(), t: figure(), needed: figure(), changed: count(), queries: count(), basis: basis() }),
  /** One layer of the eval sets loses more than the tolerance. */
  v.strictObject({ kind: v.literal('layer_loses'), layer: label(100), loss: figure(), tolerance: figure() }),
  /** The served model uses embedding features this training cannot compute, so it cannot be compared as users get it. */
  v.strictObject({ kind: v.literal('current_not_comparable'), version: label(100) }),
  /** Passed: the gain that promoted it. */
  v.strictObject({ kind: v.literal('passed'), before: figure(), after: figure(), queries: count(), basis: basis() }),
]);

export type GateFinding = v.InferOutput<typeof GateFindingSchema>;

const f3 = (x: number) => x.toFixed(3);

/** A finding in English. */
export function reasonOf(f: GateFinding): string {
  const text = reasonText(f);
  return 'basis' in f && f.basis === CURATED_LAYER ? `${text}, on the curated suite` : text;
}

function reasonText(f: GateFinding): string {
  switch (f.kind) {
    case 'too_few_queries':
      return `only ${f.queries} judged held-out queries; the gate needs ${f.needed}`;
    case 'gain_too_small':
      return `nDCG@5 gain ${f3(f.gain)} is below the minimum ${f3(f.minimum)}`;
    case 'gain_not_sure':
      return `nDCG@5 gain ${f3(f.gain)} could be chance: its t is ${f.t.toFixed(2)}, below the ${f.needed.toFixed(2)} needed (${f.changed} of ${f.queries} queries changed)`;
    case 'layer_loses':
      return `layer ${f.layer} loses ${f3(f.loss)} nDCG@5, more than the tolerance ${f3(f.tolerance)}`;
    case 'current_not_comparable':
      return `the served model ${f.version} uses embedding features this training cannot compute, so it cannot be compared as users get it: retrain with the same embedder (npm run retrain -- --embedding-model …)`;
    case 'passed':
      return `nDCG@5 ${f3(f.before)} → ${f3(f.after)} (+${f3(f.after - f.before)}) on ${f.queries} held-out queries`;
  }
}
