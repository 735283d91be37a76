import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransformersEmbedder } from '../../client/transformers-embedder.ts';
import { cosine } from '../../shared/embedder.ts';
import { ROOT } from '../wrangler.ts';
import { buildCorpusModel, CORPUS_MODEL_DEFAULTS, corpusEmbeddingTable } from './corpus-model.ts';

/** Two topics; within each, documents share words pairwise, so co-occurrence links words no one document holds together. */
const CORPUS = [
  'The oven bakes bread with flour and yeast.',
  'Flour, yeast and butter make a soft dough.',
  'Dough rises before the oven bakes it.',
  'Butter and sugar for a sweet dough.',
  'Sugar glaze on warm bread.',
  'The telescope shows a distant galaxy.',
  'A galaxy holds stars and a black hole.',
  'Stars orbit the black hole at the centre.',
  'The telescope mirror gathers faint light from stars.',
  'Faint light from a distant quasar.',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-corpus-model-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('corpusEmbeddingTable', () => {
  it('keeps words of at least minDocuments documents, most frequent first, after the special tokens', () => {
    const { tokens, table } = corpusEmbeddingTable(CORPUS, { dim: 4 });
    expect(tokens.slice(0, 4)).toEqual(['[PAD]', '[UNK]', '[CLS]', '[SEP]']);
    expect(tokens).toContain('dough');
    // In one document only, or a stop word: no vector of its own.
    expect(tokens).not.toContain('quasar');
    expect(tokens).not.toContain('the');
    expect(table.length).toBe(tokens.length * 4);
    expect([...table.subarray(0, 16)].every((v) => v === 0)).toBe(true);
  });

  it('scales each word by its idf: rarer words weigh more in the pooled mean', () => {
    const { tokens, table } = corpusEmbeddingTable(CORPUS, { dim: 4 });
    const length = (word: string) => Math.hypot(...table.subarray(tokens.indexOf(word) * 4, (tokens.indexOf(word) + 1) * 4));
    // "dough" is in 3 documents, "bread" in 2.
    expect(length('bread')).toBeGreaterThan(length('dough'));
  });
});

describe('buildCorpusModel', () => {
  it('writes a model transformers.js loads, which puts texts of one topic together even with no word in common', async () => {
    // Two dimensions for two topics: more would split a topic into its own sub-topics.
    const { modelId, localModelPath } = await buildCorpusModel(join(dir, 'm'), CORPUS, { dim: 2 });
    expect(modelId).toBe(CORPUS_MODEL_DEFAULTS.modelId);
    const embedder = createTransformersEmbedder({ model: modelId, localModelPath, quantized: false });
    const [query, sameTopic, otherTopic] = await embedder.embed(['fresh bread from the oven', 'butter and sugar', 'black hole at a galaxy centre']);
    expect(cosine(query!, sameTopic!)).toBeGreaterThan(0.5);
    expect(cosine(query!, sameTopic!)).toBeGreaterThan(cosine(query!, otherTopic!) + 0.5);
  });

  it('makes its vocabulary of the words the tokenizer sees, so none of them becomes [UNK]', async () => {
    const corpus = ['Naïve cells at 37°C', 'naive ﬁsh at 37°C', 'ﬁsh 鱼 water', '鱼 water cells'];
    const { tokens } = corpusEmbeddingTable(corpus, { dim: 3 });
    expect(tokens).toEqual(expect.arrayContaining(['naive', '37°c', 'ﬁsh', '鱼', 'cells', 'water']));
    const { modelId, localModelPath } = await buildCorpusModel(join(dir, 'words'), corpus, { dim: 3 });
    const embedder = createTransformersEmbedder({ model: modelId, localModelPath, quantized: false });
    for (const v of await embedder.embed(['Naïve', '37°C', 'ﬁsh', '鱼'])) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    // A text with no word of the corpus has no direction: a zero vector, not NaN.
    const [none] = await embedder.embed(['what is it?']);
    expect([...none!].every((x) => x === 0)).toBe(true);
  });

  it('runs as a command on a BEIR directory', async () => {
    const data = join(dir, 'beir');
    await mkdir(data, { recursive: true });
    await writeFile(join(data, 'corpus.jsonl'), CORPUS.map((text, i) => JSON.stringify({ _id: `d${i}`, title: '', text })).join('\n'));
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const out = execFileSync(tsx, ['scripts/embedding-models/corpus-model.ts', '--data', data, '--out', join(dir, 'cli')], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toContain(CORPUS_MODEL_DEFAULTS.modelId);
    const config = JSON.parse(await readFile(join(dir, 'cli', CORPUS_MODEL_DEFAULTS.modelId, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'bert', hidden_size: CORPUS_MODEL_DEFAULTS.dim });
  });
});
