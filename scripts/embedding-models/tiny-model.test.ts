import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '../../shared/embedder.ts';
import { ROOT } from '../wrangler.ts';
import { SPECIAL_TOKENS } from './model-files.ts';
import { buildTinyModel, embeddingTable, TINY_MODEL_DEFAULTS } from './tiny-model.ts';
import { FUNCTION_WORDS, OTHER_WORDS, SYNONYM_GROUPS } from './vocabulary.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-tiny-model-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx'];

describe('buildTinyModel', () => {
  it('writes a BERT-like model directory under the model id', async () => {
    const { modelId, localModelPath } = await buildTinyModel(join(dir, 'a'));
    expect(modelId).toBe(TINY_MODEL_DEFAULTS.modelId);
    expect(localModelPath).toBe(join(dir, 'a'));
    const modelDir = join(localModelPath, modelId);
    const config = JSON.parse(await readFile(join(modelDir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'bert', hidden_size: TINY_MODEL_DEFAULTS.dim });
    const tokenizer = JSON.parse(await readFile(join(modelDir, 'tokenizer.json'), 'utf8'));
    expect(tokenizer.model.type).toBe('WordPiece');
    expect(SPECIAL_TOKENS.map((t) => tokenizer.model.vocab[t])).toEqual([0, 1, 2, 3]);
    expect(Object.keys(tokenizer.model.vocab)).toHaveLength(config.vocab_size);
    for (const file of FILES) expect((await readFile(join(modelDir, file))).byteLength).toBeGreaterThan(100);
  });

  it('writes the same bytes for the same seed, and another table for another seed', async () => {
    const read = (root: string) => readFile(join(root, TINY_MODEL_DEFAULTS.modelId, 'onnx', 'model.onnx'));
    await buildTinyModel(join(dir, 'b1'));
    await buildTinyModel(join(dir, 'b2'));
    await buildTinyModel(join(dir, 'b3'), { seed: 8 });
    expect((await read(join(dir, 'b1'))).equals(await read(join(dir, 'b2')))).toBe(true);
    expect((await read(join(dir, 'b1'))).equals(await read(join(dir, 'b3')))).toBe(false);
  });

  it('runs as a command', async () => {
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const out = execFileSync(tsx, ['scripts/embedding-models/tiny-model.ts', join(dir, 'cli')], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toContain(TINY_MODEL_DEFAULTS.modelId);
    for (const file of FILES) expect((await readFile(join(dir, 'cli', TINY_MODEL_DEFAULTS.modelId, file))).byteLength).toBeGreaterThan(100);
  });
});

describe('embeddingTable', () => {
  const dim = TINY_MODEL_DEFAULTS.dim;
  const { tokens, table } = embeddingTable(dim, TINY_MODEL_DEFAULTS.seed);
  const vector = (token: string) => table.subarray(tokens.indexOf(token) * dim, (tokens.indexOf(token) + 1) * dim);

  it('puts the words of a synonym group close together and unrelated words apart', () => {
    for (const [first, ...rest] of SYNONYM_GROUPS) {
      for (const word of rest) expect(cosine(vector(first!), vector(word))).toBeGreaterThan(0.8);
    }
    const contentWords = [...SYNONYM_GROUPS.map((group) => group[0]!), ...OTHER_WORDS];
    for (const [i, a] of contentWords.entries()) {
      for (const b of contentWords.slice(i + 1)) expect(Math.abs(cosine(vector(a), vector(b)))).toBeLessThan(0.6);
    }
  });

  it('gives function words short vectors, so they barely move a sentence mean', () => {
    for (const word of FUNCTION_WORDS) expect(Math.hypot(...vector(word))).toBeLessThan(0.5);
    for (const word of OTHER_WORDS) expect(Math.hypot(...vector(word))).toBeCloseTo(1, 5);
  });
});
