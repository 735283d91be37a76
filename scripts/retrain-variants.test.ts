/**
 * `npm run retrain --embedding-model` keeps a variant eval query only when the embedder confirms it
 * asks what its echo query asks: the echo it is compared with is the question whose labels it
 * inherited, not another question that happens to share a judged chunk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../shared/embedder.ts';
import { DEFAULT_LOOP_SETTINGS } from '../shared/schema/settings.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import type { EvalQuery } from '../shared/training/gate.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { retrainRemote, type TrainingPayload } from './retrain/retrain-remote.ts';

let collector: AdminApiStub | undefined;
afterEach(() => collector?.close());

/** Two dimensions of meaning: refunds and shipping; any other text embeds as nothing. */
const topics: Embedder = {
  id: 'topics',
  embed: async (texts) => texts.map((t) => Float32Array.of(/refund|return/i.test(t) ? 1 : 0, /shipping|delivery/i.test(t) ? 1 : 0)),
};

const candidates = [
  { chunkId: 'faq#1', sourceDocId: 'faq.md', text: 'Frequently asked questions.', score: 3 },
  { chunkId: 'refunds#2', sourceDocId: 'refunds.md', text: 'Opened items: 14 days.', score: 2 },
  { chunkId: 'shipping#1', sourceDocId: 'shipping.md', text: 'Shipping takes three days.', score: 1 },
];

describe('npm run retrain with an embedder, variant eval queries', () => {
  it('compares a variant with the echo query whose labels it carries, not one sharing a distractor', async () => {
    // Both questions judged the FAQ chunk not relevant; the variant re-asks the shipping question.
    const evalQueries: EvalQuery[] = [
      { layer: 'echo', query: 'Refund window for opened items?', candidates, judgements: { 'faq#1': 0, 'refunds#2': 1 } },
      { layer: 'echo', query: 'Shipping time abroad?', candidates, judgements: { 'faq#1': 0, 'shipping#1': 1 } },
      { layer: 'variant', query: 'How long is delivery overseas?', candidates, judgements: { 'faq#1': 0, 'shipping#1': 1 } },
    ];
    const payload: TrainingPayload = {
      data: trainingWorld().data,
      evalQueries,
      current: null,
      settings: DEFAULT_LOOP_SETTINGS,
      newExamples: true,
      readAt: Date.now(),
    };
    collector = await stubAdminApi({ 'GET /v1/admin/training-data': { status: 200, body: payload } });
    const lines: string[] = [];
    const outcome = await retrainRemote({ endpoint: collector.url, adminKey: 'rfa_x' }, { embedder: topics, dryRun: true, log: (l) => lines.push(l) });
    expect(lines).toContain('embeddings: topics; 0 variant eval queries not confirmed as rephrases');
    expect(outcome).toMatchObject({ trained: true, evaluation: { candidate: { layers: { variant: { queries: 1 } } } } });
  });
});
