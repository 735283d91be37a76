import { describe, expect, it } from 'vitest';
import type { Candidate } from '../reranker/candidate.ts';
import type { RerankerModel } from '../reranker/model.ts';
import { rerankWithModel } from '../reranker/rerank.ts';
import { DEFAULT_LOOP_SETTINGS } from '../schema/settings.ts';
import { trainingWorld } from './fixture.ts';
import { type RetrainInput, retrain } from './retrain.ts';

const settings = { ...DEFAULT_LOOP_SETTINGS, trainingMinConfirmed: 10 };

describe('retrain', () => {
  it('does not replace a served model it cannot rank as users get it (embedding features, no embedder)', () => {
    const { data, heldOut } = trainingWorld();
    const first = retrain({ data, evalQueries: heldOut, current: null, settings, version: 'v1', now: 0 });
    if (!first.trained) throw new Error(first.reason);
    // The served model also weighs an embedding feature, which lexical ranking leaves at its mean.
    const served: RerankerModel = {
      ...first.model,
      version: 'v-embeddings',
      features: [...first.model.features, 'embedding_similarity'],
      weights: [...first.model.weights, 2],
      mean: [...first.model.mean, 0],
      scale: [...first.model.scale, 1],
    };
    const blind = retrain({ data, evalQueries: heldOut, current: served, settings, version: 'v2', now: 0 });
    if (!blind.trained) throw new Error(blind.reason);
    expect(blind.decision).toEqual({
      promote: false,
      findings: [{ kind: 'current_not_comparable', version: 'v-embeddings' }],
      reasons: [expect.stringContaining('v-embeddings uses embedding features')],
    });
    // A ranker of its own is no proof the features are computed: without vectors, or with another
    // embedder's, the served model is ranked blind all the same.
    const lexical = (model: RerankerModel) => (q: string, c: readonly Candidate[]) => rerankWithModel(model, q, c).map((r) => r.chunkId);
    const vectors = (embedder: string) => ({ embedder, queries: new Map(), chunks: new Map() });
    const findings = (more: Partial<RetrainInput>) => {
      const outcome = retrain({ data, evalQueries: heldOut, current: { ...served, embedder: 'minilm' }, settings, version: 'v3', now: 0, ...more });
      if (!outcome.trained) throw new Error(outcome.reason);
      return outcome.decision.findings.map((f) => f.kind);
    };
    expect(findings({ rankWith: lexical })).toEqual(['current_not_comparable']);
    expect(findings({ rankWith: lexical, vectors: vectors('another-model') })).toEqual(['current_not_comparable']);
    // With its own embedder's vectors, the gate judges as usual.
    expect(findings({ rankWith: lexical, vectors: vectors('minilm') })).not.toContain('current_not_comparable');
  });
});
