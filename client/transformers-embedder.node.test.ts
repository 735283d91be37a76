/**
 * The real transformers.js loading and inference path, with the model hub off, on the tiny model
 * the repo builds (scripts/embedding-models/): tokenizer, ONNX session, mean pooling, normalisation.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from '@xenova/transformers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTinyModel, TINY_MODEL_DEFAULTS } from '../scripts/embedding-models/tiny-model.ts';
import { cosine } from '../shared/embedder.ts';
import { createTransformersEmbedder, DEFAULT_EMBEDDING_MODEL, pipelineLoadCount } from './transformers-embedder.ts';

let dir: string;
let tiny: { model: string; localModelPath: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-embedder-'));
  const { modelId, localModelPath } = await buildTinyModel(dir);
  tiny = { model: modelId, localModelPath };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const norm = (v: Float32Array) => Math.hypot(...v);

describe('createTransformersEmbedder', () => {
  it('answers one unit-length vector of the model size per text, in order', async () => {
    const embedder = createTransformersEmbedder(tiny);
    const texts = ['How do I get a refund?', 'Is it going to rain tomorrow?', 'reset my password'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(TINY_MODEL_DEFAULTS.dim);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(cosine(alone!, vectors[i]!)).toBeCloseTo(1, 6);
    }
  });

  it('refuses what is not a list of texts, naming the text, rather than embedding pieces of a string', async () => {
    const embedder = createTransformersEmbedder(tiny);
    // A string where a list belongs (plain JavaScript): it would be cut into 32-character pieces.
    await expect(embedder.embed('How long is the refund period for damaged goods?' as never)).rejects.toThrow(
      /texts must be an array of strings, not a string/,
    );
    await expect(embedder.embed(['refund', undefined, 'music'] as never)).rejects.toThrow(/texts\[1\] must be a string, not undefined/);
    expect(await embedder.embed(['refund'])).toHaveLength(1);
  });

  it('gives identical texts identical vectors, in one batch or apart', async () => {
    const embedder = createTransformersEmbedder(tiny);
    const text = 'How long is the refund period for damaged goods?';
    const [first, other, again] = await embedder.embed([text, 'music', text]);
    expect(again).toEqual(first);
    expect(cosine(first!, other!)).toBeLessThan(0.5);
    const [alone] = await embedder.embed([text]);
    expect(cosine(alone!, first!)).toBeCloseTo(1, 6);
  });

  it('puts a paraphrase from a synonym group closer than an unrelated sentence', async () => {
    const [question, paraphrase, unrelated] = await createTransformersEmbedder(tiny).embed([
      'How do I get a refund?',
      'How can I obtain a reimbursement?',
      'Is the weather nice in the garden today?',
    ]);
    expect(cosine(question!, paraphrase!)).toBeGreaterThan(0.8);
    expect(cosine(question!, unrelated!)).toBeLessThan(0.3);
  });

  it('answers the same vectors whatever the batch size', async () => {
    const texts = ['refund', 'cancel my plan', 'buy coffee', 'delivery fee', 'rain in the city'];
    const whole = await createTransformersEmbedder(tiny).embed(texts);
    const inPairs = await createTransformersEmbedder({ ...tiny, batchSize: 2 }).embed(texts);
    expect(inPairs).toHaveLength(texts.length);
    inPairs.forEach((v, i) => {
      expect(cosine(v, whole[i]!)).toBeCloseTo(1, 6);
    });
  });

  it('loads the pipeline once for every embedder of the same model, even when they ask at once', async () => {
    const { modelId } = await buildTinyModel(dir, { modelId: 'rag-feedback/tiny-shared' });
    const before = pipelineLoadCount();
    const a = createTransformersEmbedder({ model: modelId, localModelPath: dir });
    const b = createTransformersEmbedder({ model: modelId, localModelPath: dir });
    expect(pipelineLoadCount()).toBe(before); // nothing loads until a text is embedded
    await Promise.all([a.embed(['refund']), b.embed(['cancel']), a.embed(['price'])]);
    await b.embed(['again']);
    expect(pipelineLoadCount()).toBe(before + 1);
  });

  it('names the model and its weights, and loads full-precision weights as a model of their own', async () => {
    const quantized = createTransformersEmbedder(tiny);
    const full = createTransformersEmbedder({ ...tiny, quantized: false });
    expect(quantized.id).toMatch(new RegExp(`^${tiny.model}@[0-9a-f]{12}:quantized$`));
    expect(full.id).toBe(quantized.id.replace(/:quantized$/, ':fp32'));
    const text = 'what does shipping cost';
    const [q] = await quantized.embed([text]);
    const before = pipelineLoadCount();
    const [f] = await full.embed([text]);
    expect(pipelineLoadCount()).toBe(before + 1);
    // The int8 table rounds each weight, so the vectors are close but not equal.
    expect(f).not.toEqual(q);
    expect(cosine(f!, q!)).toBeGreaterThan(0.99);
  });

  it('names a model the repo builds by its weights too, so a rebuild with other weights is another embedder', async () => {
    const options = { model: 'acme/rebuilt', localModelPath: dir };
    await buildTinyModel(dir, { modelId: options.model });
    const first = createTransformersEmbedder(options);
    const [before] = await first.embed(['refund']);
    // Built again from the same input: the same weights, the same embedder.
    await buildTinyModel(dir, { modelId: options.model });
    expect(createTransformersEmbedder(options).id).toBe(first.id);
    await buildTinyModel(dir, { modelId: options.model, seed: 8 });
    const rebuilt = createTransformersEmbedder(options);
    expect(rebuilt.id).not.toBe(first.id);
    expect(rebuilt.id).toMatch(/^acme\/rebuilt@[0-9a-f]{12}:quantized$/);
    // Its vectors come from the new weights, not from the pipeline this process loaded before.
    const [after] = await rebuilt.embed(['refund']);
    expect(cosine(before!, after!)).toBeLessThan(0.9);
  });

  it('keeps the name alone for a model whose config records no weights, as one from the hub', async () => {
    await buildTinyModel(dir, { modelId: 'acme/downloaded' });
    const config = join(dir, 'acme/downloaded', 'config.json');
    const { weights_sha256: _, ...hubConfig } = JSON.parse(await readFile(config, 'utf8'));
    await writeFile(config, JSON.stringify(hubConfig));
    const embedder = createTransformersEmbedder({ model: 'acme/downloaded', localModelPath: dir });
    expect(embedder.id).toBe('acme/downloaded:quantized');
    expect(await embedder.embed(['refund'])).toHaveLength(1);
  });

  it('defaults to a small English sentence-embedding model on the hub', () => {
    expect(createTransformersEmbedder().id).toBe(`${DEFAULT_EMBEDDING_MODEL}:quantized`);
  });

  it('fails with an error naming the model and the directory when the model is not there', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {}); // transformers.js warns per file it misses
    try {
      const missing = createTransformersEmbedder({ model: 'acme/not-built', localModelPath: dir });
      const error = await missing.embed(['refund']).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain('"acme/not-built"');
      expect((error as Error).message).toContain(`${dir} (remote models are off)`);
      // A failed load is not remembered: once the model is in place, the same embedder works.
      await buildTinyModel(dir, { modelId: 'acme/not-built' });
      expect(await missing.embed(['refund'])).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('reads only the directory it is given, never a cached download of the same name', async () => {
    const cacheDir = join(dir, 'hub-cache');
    await buildTinyModel(cacheDir, { modelId: 'acme/cached', seed: 8 }); // what a hub download under that name would have left
    await buildTinyModel(dir, { modelId: 'acme/cached' });
    await buildTinyModel(dir, { modelId: 'acme/like-the-cache', seed: 8 });
    const savedCacheDir = env.cacheDir;
    env.cacheDir = cacheDir;
    try {
      const [local] = await createTransformersEmbedder({ model: 'acme/cached', localModelPath: dir }).embed(['refund']);
      const [cached] = await createTransformersEmbedder({ model: 'acme/like-the-cache', localModelPath: dir }).embed(['refund']);
      expect(cosine(local!, cached!)).toBeLessThan(0.9);
    } finally {
      env.cacheDir = savedCacheDir;
    }
  });

  it('leaves transformers.js settings as it found them', async () => {
    const before = { allowRemoteModels: env.allowRemoteModels, localModelPath: env.localModelPath, useFSCache: env.useFSCache };
    const { modelId } = await buildTinyModel(dir, { modelId: 'rag-feedback/tiny-settings' });
    await createTransformersEmbedder({ model: modelId, localModelPath: dir }).embed(['refund']);
    expect({ allowRemoteModels: env.allowRemoteModels, localModelPath: env.localModelPath, useFSCache: env.useFSCache }).toEqual(before);
    expect(before.allowRemoteModels).toBe(true);
  });

  it('loads nothing for no texts', async () => {
    const before = pipelineLoadCount();
    expect(await createTransformersEmbedder({ model: 'acme/never-loaded', localModelPath: dir }).embed([])).toEqual([]);
    expect(pipelineLoadCount()).toBe(before);
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => createTransformersEmbedder({ ...tiny, batchSize: 0 })).toThrow(/batchSize/);
    expect(() => createTransformersEmbedder({ ...tiny, batchSize: 1.5 })).toThrow(/batchSize/);
  });
});
