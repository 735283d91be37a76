/**
 * Writes a sentence-embedding model learnt from a corpus alone (model-files.ts), for machines
 * that cannot download a pretrained one: each word's vector comes from latent semantic analysis
 * of the corpus (lsa.ts), normalised and then scaled by the word's idf, so the mean the pipeline
 * pools is an idf-weighted mean of word directions. Words in fewer than `minDocuments` documents
 * and stop words are left out (the tokenizer maps them to [UNK], whose row is zero).
 *
 * It knows only the words of its corpus and nothing of word order, so it is a stand-in for a
 * pretrained model (README, "Retraining"), not a replacement.
 *
 *   tsx scripts/embedding-models/corpus-model.ts --data <BEIR directory> --out <dir>
 */
import { resolve } from 'node:path';
import { readBeirCorpus } from '../../demo/corpus/beir.ts';
import { passage } from '../../demo/corpus/chunk.ts';
import { byCodeUnit } from '../../shared/code-unit-order.ts';
import { STOP_WORDS } from '../../shared/terms.ts';
import { failInOneLine, parseFlags } from '../cli.ts';
import { termVectors } from './lsa.ts';
import { SPECIAL_TOKENS, writeEmbeddingModel } from './model-files.ts';

export interface CorpusModelOptions {
  /** The model's name under the directory, as `pipeline()` is given it. */
  modelId?: string;
  /** Vector size. */
  dim?: number;
  /** Fewest documents a word must occur in to get a vector. */
  minDocuments?: number;
  /** Seeds the randomized SVD: the same corpus and seed write the same model. */
  seed?: number;
  /** Longest input in tokens: a whole passage rather than BERT's first 128. */
  maxTokens?: number;
}

export const CORPUS_MODEL_DEFAULTS = { modelId: 'rag-feedback/corpus-lsa', dim: 256, minDocuments: 2, seed: 1, maxTokens: 512 } as const;

/** What BERT's pre-tokenizer splits on besides white space, as transformers.js spells it. */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const WORD = new RegExp(`[^\\s${PUNCTUATION}]+`, 'gu');
/** Characters BERT's normaliser drops, and the CJK characters it makes words of their own. */
const CONTROL = /[\uFFFD\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
const CJK = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/g;
/** WordPiece gives [UNK] to a longer word. */
const MAX_WORD_CHARS = 100;

/**
 * The words of `text` as the model's tokenizer will see them (BERT's normaliser and pre-tokenizer,
 * as transformers.js runs them), minus stop words: each one the vocabulary holds encodes whole.
 */
export function modelWords(text: string): string[] {
  const normal = text
    .replace(/[\t\n\r]/g, ' ')
    .replace(CONTROL, '')
    .replace(CJK, ' $& ')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  return [...normal.matchAll(WORD)].map(([w]) => w).filter((w) => [...w].length <= MAX_WORD_CHARS && !STOP_WORDS.has(w));
}

/** The model's tokens and table for `texts` (one per document). */
export function corpusEmbeddingTable(texts: readonly string[], options: CorpusModelOptions = {}): { tokens: string[]; table: Float32Array } {
  const { dim, minDocuments, seed } = { ...CORPUS_MODEL_DEFAULTS, ...options };
  const docs = texts.map(modelWords);
  const df = new Map<string, number>();
  for (const words of docs) for (const w of new Set(words)) df.set(w, (df.get(w) ?? 0) + 1);
  // Most frequent first, ties by spelling: the same corpus gives the same ids.
  const words = [...df]
    .filter(([, n]) => n >= minDocuments)
    .sort(([a, x], [b, y]) => y - x || byCodeUnit(a, b))
    .map(([w]) => w);
  const column = new Map(words.map((w, i) => [w, i]));
  const n = docs.length;
  // BM25's idf, which stays positive for words in most documents.
  const idf = words.map((w) => Math.log(1 + (n - df.get(w)! + 0.5) / (df.get(w)! + 0.5)));
  const rows = docs.map((doc) => {
    const tf = new Map<number, number>();
    for (const w of doc) {
      const c = column.get(w);
      if (c !== undefined) tf.set(c, (tf.get(c) ?? 0) + 1);
    }
    const cols = Int32Array.from(tf.keys());
    return { cols, vals: Float64Array.from(cols, (c) => (1 + Math.log(tf.get(c)!)) * idf[c]!) };
  });
  const vectors = termVectors({ rows, columns: words.length }, dim, seed);
  const tokens = [...SPECIAL_TOKENS, ...words];
  const table = new Float32Array(tokens.length * dim);
  words.forEach((_, i) => {
    const row = vectors.subarray(i * dim, (i + 1) * dim);
    const norm = Math.hypot(...row);
    if (norm === 0) return;
    const offset = (SPECIAL_TOKENS.length + i) * dim;
    for (let k = 0; k < dim; k++) table[offset + k] = (row[k]! / norm) * idf[i]!;
  });
  return { tokens, table };
}

/** Builds the model from `texts` and writes it under `dir`. */
export async function buildCorpusModel(dir: string, texts: readonly string[], options: CorpusModelOptions = {}) {
  const { modelId, dim, maxTokens } = { ...CORPUS_MODEL_DEFAULTS, ...options };
  const { tokens, table } = corpusEmbeddingTable(texts, options);
  return writeEmbeddingModel(dir, { modelId, tokens, table, dim, maxTokens });
}

/** The texts of a BEIR directory's corpus, as the demo hands them to the reranker. */
export async function beirTexts(dataDir: string): Promise<string[]> {
  return (await readBeirCorpus(dataDir)).chunks.map(passage);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  failInOneLine();
  const usage = 'tsx scripts/embedding-models/corpus-model.ts --data <BEIR directory> --out <dir>';
  const values = parseFlags({ data: { type: 'string' }, out: { type: 'string' } }, usage);
  if (!values.data || !values.out) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const started = Date.now();
  const { modelId, localModelPath } = await buildCorpusModel(resolve(values.out), await beirTexts(resolve(values.data)));
  console.log(
    `Wrote ${modelId} into ${localModelPath} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `createTransformersEmbedder({ model: '${modelId}', localModelPath: '${localModelPath}', quantized: false })`,
  );
}
