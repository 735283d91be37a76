/**
 * Writes a tiny BERT-like sentence-embedding model (model-files.ts) over the small English
 * vocabulary in vocabulary.ts, for tests and the demo on machines without the model hub.
 *
 * The embedding table is deterministic for a seed. Words of one synonym group (see SYNONYM_GROUPS)
 * get nearby vectors, so a paraphrase that swaps words within groups really is closer than an
 * unrelated sentence; function words get short vectors so they barely move the mean.
 *
 *   tsx scripts/embedding-models/tiny-model.ts <dir>
 */
import { resolve } from 'node:path';
import { failInOneLine, parseCommand } from '../cli.ts';
import { random } from '../seed/traffic.ts';
import { SPECIAL_TOKENS, writeEmbeddingModel } from './model-files.ts';
import { FUNCTION_WORDS, OTHER_WORDS, SUFFIX_PIECES, SYNONYM_GROUPS } from './vocabulary.ts';

export interface TinyModelOptions {
  /** The model's name under the directory, as `pipeline()` is given it. */
  modelId?: string;
  /** Vector size. */
  dim?: number;
  /** Seeds the embedding table: the same seed writes the same model. */
  seed?: number;
}

export const TINY_MODEL_DEFAULTS = { modelId: 'rag-feedback/tiny-english', dim: 64, seed: 7 } as const;

/** Lengths of the token vectors, by kind: what mean pooling weighs each kind by. */
const NORM = { special: 0.1, functionWord: 0.2, suffix: 0.1, contentWord: 1 } as const;
/** How far a group's words stray from the group's centre (cosine between two of them is about 0.9). */
const SYNONYM_SPREAD = 0.3;
/** Longest input in tokens, as tokenizers of BERT-like models declare. */
const MAX_TOKENS = 128;

/** Writes the model and answers what `createTransformersEmbedder` needs to load it. */
export async function buildTinyModel(dir: string, options: TinyModelOptions = {}): Promise<{ modelId: string; localModelPath: string }> {
  const { modelId, dim, seed } = { ...TINY_MODEL_DEFAULTS, ...options };
  const { tokens, table } = embeddingTable(dim, seed);
  return writeEmbeddingModel(dir, { modelId, tokens, table, dim, maxTokens: MAX_TOKENS });
}

/** Every token in id order, and its vector as one row of the table. */
export function embeddingTable(dim: number, seed: number): { tokens: string[]; table: Float32Array } {
  const next = random(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const direction = () => normalise(Float32Array.from({ length: dim }, gaussian));
  const scaled = (v: Float32Array, length: number) => v.map((x) => x * length);

  const rows: [string, Float32Array][] = [];
  for (const token of SPECIAL_TOKENS) rows.push([token, token === '[PAD]' ? new Float32Array(dim) : scaled(direction(), NORM.special)]);
  for (const word of FUNCTION_WORDS) rows.push([word, scaled(direction(), NORM.functionWord)]);
  for (const group of SYNONYM_GROUPS) {
    const centre = direction();
    for (const word of group) {
      const noise = direction();
      rows.push([word, normalise(centre.map((x, i) => x + SYNONYM_SPREAD * noise[i]!))]);
    }
  }
  for (const word of OTHER_WORDS) rows.push([word, scaled(direction(), NORM.contentWord)]);
  for (const piece of SUFFIX_PIECES) rows.push([piece, scaled(direction(), NORM.suffix)]);

  const tokens = rows.map(([token]) => token);
  const table = new Float32Array(rows.length * dim);
  rows.forEach(([, vector], i) => {
    table.set(vector, i * dim);
  });
  return { tokens, table };
}

function normalise(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  failInOneLine();
  const usage = 'tsx scripts/embedding-models/tiny-model.ts <dir>';
  const [dir] = parseCommand({}, usage, { positionals: 1 }).positionals;
  if (!dir) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const { modelId, localModelPath } = await buildTinyModel(resolve(dir));
  console.log(`Wrote ${modelId} into ${localModelPath}: createTransformersEmbedder({ model: '${modelId}', localModelPath: '${localModelPath}' })`);
}
