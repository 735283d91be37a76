import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTinyModel } from '../scripts/embedding-models/tiny-model.ts';
import { cosine, type Embedder } from '../shared/embedder.ts';
import { querySimilarity } from '../shared/similarity.ts';
import { REPHRASE_SIMILARITY } from '../shared/thresholds.ts';
import { confirmRephrases, REPHRASE_MIN_COSINE } from './rephrase.ts';
import { createTransformersEmbedder } from './transformers-embedder.ts';

let dir: string;
let embedder: Embedder;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-rephrase-'));
  const { modelId, localModelPath } = await buildTinyModel(dir);
  embedder = createTransformersEmbedder({ model: modelId, localModelPath });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('confirmRephrases on a real embedding model', () => {
  it('accepts a question asked again in other words and rejects an unrelated one', async () => {
    const verdicts = await confirmRephrases(embedder, [
      { a: 'How do I get a refund?', b: 'How can I obtain a reimbursement?' },
      { a: 'How do I get a refund?', b: 'Is the weather nice in the garden today?' },
    ]);
    expect(verdicts).toEqual([true, false]);
  });

  it('rejects a pair the lexical test takes for a rephrase but that asks something else', async () => {
    const pair = { a: 'how do i cancel my subscription', b: 'how do i cancel my order' };
    expect(querySimilarity(pair.a, pair.b)).toBeGreaterThanOrEqual(REPHRASE_SIMILARITY);
    expect(await confirmRephrases(embedder, [pair])).toEqual([false]);
  });

  it('defaults to REPHRASE_MIN_COSINE and takes the threshold it is given', async () => {
    const pair = { a: 'how do i cancel my subscription', b: 'how do i cancel my order' };
    const [x, y] = await embedder.embed([pair.a, pair.b]);
    const score = cosine(x!, y!);
    expect(score).toBeLessThan(REPHRASE_MIN_COSINE);
    expect(await confirmRephrases(embedder, [pair], score)).toEqual([true]);
    expect(await confirmRephrases(embedder, [pair], score + 0.01)).toEqual([false]);
  });
});

describe('confirmRephrases', () => {
  /** Vectors chosen per text, and a record of each call. */
  const stub = (vectors: Record<string, number[]>) => {
    const calls: string[][] = [];
    const embedder: Embedder = {
      id: 'stub',
      embed: async (texts) => {
        calls.push([...texts]);
        return texts.map((t) => Float32Array.from(vectors[t]!));
      },
    };
    return { embedder, calls };
  };

  it('embeds every text in one call and judges each pair by its own two vectors', async () => {
    const { embedder, calls } = stub({ q: [1, 0], same: [0.8, 0.6], q2: [0, 1], other: [1, 0] });
    const verdicts = await confirmRephrases(embedder, [
      { a: 'q', b: 'same' },
      { a: 'q2', b: 'other' },
    ]);
    expect(verdicts).toEqual([true, false]);
    expect(calls).toEqual([['q', 'same', 'q2', 'other']]);
  });

  it('counts a cosine exactly at the threshold as a rephrase', async () => {
    const { embedder } = stub({ a: [0.6, 0.8], b: [0.6, 0.8] });
    expect(await confirmRephrases(embedder, [{ a: 'a', b: 'b' }], 1)).toEqual([true]);
  });

  it('asks nothing of the embedder for no pairs', async () => {
    const { embedder, calls } = stub({});
    expect(await confirmRephrases(embedder, [])).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('confirmRephrases given what it cannot judge', () => {
  const embedder: Embedder = { id: 'stub', embed: async (texts) => texts.map(() => Float32Array.from([1, 0])) };
  const pair = { a: 'how do i get a refund', b: 'can i have my money back' };

  it('refuses a threshold no cosine could be judged by, naming it', async () => {
    // 70 meant as a percentage, or NaN from a misread setting: every pair would be refused, silently.
    await expect(confirmRephrases(embedder, [pair], 70)).rejects.toThrow(/minCosine must be a number from -1 to 1, not 70/);
    await expect(confirmRephrases(embedder, [pair], Number.NaN)).rejects.toThrow(/minCosine/);
  });

  it('names the pair and side that is not a question, and an embedder that answers too few vectors', async () => {
    await expect(confirmRephrases(embedder, [pair, { a: 'q', b: undefined }] as never)).rejects.toThrow(/pairs\[1\]\.b must be a string/);
    const short: Embedder = { id: 'short', embed: async (texts) => texts.slice(1).map(() => Float32Array.from([1, 0])) };
    await expect(confirmRephrases(short, [pair])).rejects.toThrow(/embedder short answered 1 vectors for 2 texts/);
  });
});
