/**
 * The embedding feature family end to end in Node: vectors from the real transformers.js path on
 * the tiny model, trained into an artifact, and used by rerank() for a paraphrase that shares no
 * content word with the judged query.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTinyModel } from '../scripts/embedding-models/tiny-model.ts';
import type { Embedder } from '../shared/embedder.ts';
import { featureRows, queryView } from '../shared/reranker/features.ts';
import { modelEvidence } from '../shared/reranker/model-evidence.ts';
import { rerankWithModel } from '../shared/reranker/rerank.ts';
import { queryKey } from '../shared/terms.ts';
import type { TrainingData } from '../shared/training/data.ts';
import { chunkVectorKey, trainReranker } from '../shared/training/train.ts';
import { createReranker } from './reranker.ts';
import { createTransformersEmbedder } from './transformers-embedder.ts';

let dir: string;
let embedder: Embedder;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-rerank-embed-'));
  const { modelId, localModelPath } = await buildTinyModel(dir);
  embedder = createTransformersEmbedder({ model: modelId, localModelPath });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const chunks = [
  { chunkId: 'shipping', sourceDocId: 'shipping.md', text: 'shipping takes five days', score: 9 },
  { chunkId: 'refunds', sourceDocId: 'refunds.md', text: 'a reimbursement is paid within fourteen days', score: 5 },
];

const judged = ['how do i get a refund', 'refund for a broken item please'];

/** A model trained on the judged queries with `embedder`'s vectors, and the chunks' vectors. */
async function trainedWith(embedder: Embedder) {
  const confirmed = judged.flatMap((query) => [
    { queryKey: queryKey(query), query, chunkId: 'refunds', sourceDocId: 'refunds.md', relevance: 1 as const },
    { queryKey: queryKey(query), query, chunkId: 'shipping', sourceDocId: 'shipping.md', relevance: 0 as const },
  ]);
  const data: TrainingData = {
    confirmed,
    lists: judged.map((query) => ({ queryKey: queryKey(query), query, candidates: chunks })),
    engagement: [],
    queryEngagement: [],
  };
  const qv = await embedder.embed(judged);
  const cv = await embedder.embed(chunks.map((c) => c.text));
  const vectors = {
    embedder: embedder.id,
    queries: new Map(judged.map((q, i) => [queryKey(q), qv[i]!])),
    chunks: new Map(chunks.map((c, i) => [chunkVectorKey(c), cv[i]!])),
  };
  return { model: trainReranker(data, { version: 'emb-1', now: 1_767_225_600_000, vectors }).model, cv };
}

describe('embedding features', () => {
  it('train into the artifact and carry a judgement to a paraphrase with no word in common', async () => {
    const { model, cv } = await trainedWith(embedder);
    expect(model.features).toContain('memory_embedding');
    expect(model.embedder).toBe(embedder.id);
    expect(model.memory.queries.every((q) => typeof q.vector === 'string')).toBe(true);

    // "obtain a reimbursement" shares no content word with "get a refund": only the vectors relate them.
    const paraphrase = 'how can i obtain a reimbursement';
    const unrelated = 'is the garden nice in spring';
    const [pv, uv] = await embedder.embed([paraphrase, unrelated]);
    const column = model.features.indexOf('memory_embedding');
    const evidence = modelEvidence(model);
    const memoryFor = (q: string, v: Float32Array) => featureRows(model.features, queryView(q, v), chunks, evidence, cv)[1]![column]!;
    expect(memoryFor(paraphrase, pv!)).toBeGreaterThan(0.8);
    expect(memoryFor(unrelated, uv!)).toBeLessThan(0.5);
    expect(featureRows(model.features, queryView(paraphrase), chunks, evidence)[1]![model.features.indexOf('memory_relevant')]).toBe(0);

    const ranked = rerankWithModel(model, paraphrase, chunks, { query: pv!, chunks: cv });
    expect(ranked.map((r) => r.chunkId).sort()).toEqual(['refunds', 'shipping']);
    // Without vectors the embedding features sit at their mean: ranking still works, lexically.
    expect(rerankWithModel(model, paraphrase, chunks)).toHaveLength(2);
  });

  it('are not fed the vectors of a model rebuilt with other weights under the same name', async () => {
    const options = { model: 'acme/corpus', localModelPath: dir };
    await buildTinyModel(dir, { modelId: options.model });
    const { model } = await trainedWith(createTransformersEmbedder(options));
    // The corpus changed and the model was built again: same name, other weights.
    await buildTinyModel(dir, { modelId: options.model, seed: 8 });
    const errors: string[] = [];
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      embedder: createTransformersEmbedder(options),
      fetch: async () => Response.json(model),
      onError: (e) => errors.push(e.message),
    });
    await reranker.rerank('how can i obtain a reimbursement', chunks);
    await reranker.rerank('how can i obtain a reimbursement', chunks);
    expect(errors).toEqual([
      expect.stringMatching(/^model emb-1 was trained with the embedder acme\/corpus@\w+:quantized, .*: its embedding features sit at their mean$/),
    ]);
  });
});
