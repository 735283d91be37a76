/**
 * Writes a tiny BERT-like sentence-embedding model that transformers.js loads from disk with no
 * model hub: `<dir>/<modelId>/` with config.json, tokenizer.json (WordPiece over the small English
 * vocabulary in vocabulary.ts), tokenizer_config.json, onnx/model.onnx and onnx/model_quantized.onnx.
 *
 * The embedding table is deterministic for a seed. Words of one synonym group (see SYNONYM_GROUPS)
 * get nearby vectors, so a paraphrase that swaps words within groups really is closer than an
 * unrelated sentence; function words get short vectors so they barely move the mean.
 *
 *   tsx scripts/tiny-model/build-tiny-model.ts <dir>
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { random } from '../seed/traffic.ts';
import { embeddingGraph, quantizedEmbeddingGraph } from './onnx-graph.ts';
import { FUNCTION_WORDS, OTHER_WORDS, SPECIAL_TOKENS, SUFFIX_PIECES, SYNONYM_GROUPS } from './vocabulary.ts';

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
  const modelDir = join(dir, modelId);
  await mkdir(join(modelDir, 'onnx'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await Promise.all([
    writeFile(join(modelDir, 'config.json'), json(modelConfig(tokens.length, dim))),
    writeFile(join(modelDir, 'tokenizer.json'), json(tokenizer(tokens))),
    writeFile(join(modelDir, 'tokenizer_config.json'), json(tokenizerConfig())),
    writeFile(join(modelDir, 'onnx', 'model.onnx'), embeddingGraph(table, dim)),
    writeFile(join(modelDir, 'onnx', 'model_quantized.onnx'), quantizedEmbeddingGraph(table, dim)),
  ]);
  return { modelId, localModelPath: dir };
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
  const repeated = tokens.find((t, i) => tokens.indexOf(t) !== i);
  if (repeated) throw new Error(`tiny model vocabulary lists "${repeated}" twice`);
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

function modelConfig(vocabSize: number, dim: number) {
  return { model_type: 'bert', architectures: ['BertModel'], vocab_size: vocabSize, hidden_size: dim, max_position_embeddings: MAX_TOKENS, pad_token_id: 0 };
}

/** A Hugging Face tokenizers file: BERT's normaliser, pre-tokenizer and [CLS] … [SEP] framing. */
function tokenizer(tokens: string[]) {
  const id = (token: string) => tokens.indexOf(token);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', cls: ['[CLS]', id('[CLS]')], sep: ['[SEP]', id('[SEP]')] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tokens.map((token, i) => [token, i])),
    },
  };
}

function tokenizerConfig() {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: MAX_TOKENS,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    clean_up_tokenization_spaces: true,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: tsx scripts/tiny-model/build-tiny-model.ts <dir>');
    process.exit(2);
  }
  const { modelId, localModelPath } = await buildTinyModel(resolve(dir));
  console.log(`Wrote ${modelId} into ${localModelPath}: createTransformersEmbedder({ model: '${modelId}', localModelPath: '${localModelPath}' })`);
}
