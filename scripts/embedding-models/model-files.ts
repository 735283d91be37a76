/**
 * Writes a BERT-like sentence-embedding model that transformers.js loads from disk with no model
 * hub: `<dir>/<modelId>/` with config.json, tokenizer.json (WordPiece over `tokens`),
 * tokenizer_config.json, onnx/model.onnx and onnx/model_quantized.onnx. The graph looks each
 * token's row up in `table`; the feature-extraction pipeline pools and normalises.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WEIGHTS_FIELD } from '../../shared/embedder.ts';
import { embeddingGraph, quantizedEmbeddingGraph } from './onnx-graph.ts';

/** BERT's special tokens, in the order that gives them ids 0-3: every model's first rows. */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;

export interface EmbeddingModelFiles {
  modelId: string;
  /** Every token in id order; SPECIAL_TOKENS first. */
  tokens: readonly string[];
  /** One row of `dim` values per token, row-major. */
  table: Float32Array;
  dim: number;
  /** Longest input in tokens: the tokenizer truncates beyond it. */
  maxTokens: number;
}

/** Writes the model and answers what `createTransformersEmbedder` needs to load it. */
export async function writeEmbeddingModel(dir: string, model: EmbeddingModelFiles): Promise<{ modelId: string; localModelPath: string }> {
  const { modelId, tokens, table, dim, maxTokens } = model;
  const seen = new Set<string>();
  const repeated = tokens.find((t) => seen.size === seen.add(t).size);
  if (repeated !== undefined) throw new Error(`the vocabulary of ${modelId} lists "${repeated}" twice`);
  if (table.length !== tokens.length * dim) throw new Error(`the table of ${modelId} has ${table.length} values for ${tokens.length} tokens of ${dim}`);
  const modelDir = join(dir, modelId);
  await mkdir(join(modelDir, 'onnx'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const files: [string, string | Uint8Array][] = [
    ['tokenizer.json', json(tokenizer(tokens))],
    ['tokenizer_config.json', json(tokenizerConfig(maxTokens))],
    ['onnx/model.onnx', embeddingGraph(table, dim)],
    ['onnx/model_quantized.onnx', quantizedEmbeddingGraph(table, dim)],
  ];
  const config = { ...modelConfig(tokens.length, dim, maxTokens), [WEIGHTS_FIELD]: weightsHash(files) };
  await Promise.all([['config.json', json(config)] as const, ...files].map(([name, data]) => writeFile(join(modelDir, name), data)));
  return { modelId, localModelPath: dir };
}

/** The model's weights in config.json (WEIGHTS_FIELD): the first 12 hex digits of SHA-256 over every file the tokenizer and the graphs are read from. */
function weightsHash(files: readonly [string, string | Uint8Array][]): string {
  const hash = createHash('sha256');
  for (const [name, data] of files) hash.update(`${name}\u0000${Buffer.byteLength(data)}\u0000`).update(data);
  return hash.digest('hex').slice(0, 12);
}

function modelConfig(vocabSize: number, dim: number, maxTokens: number) {
  return { model_type: 'bert', architectures: ['BertModel'], vocab_size: vocabSize, hidden_size: dim, max_position_embeddings: maxTokens, pad_token_id: 0 };
}

/** A Hugging Face tokenizers file: BERT's normaliser, pre-tokenizer and [CLS] … [SEP] framing. */
function tokenizer(tokens: readonly string[]) {
  const ids = new Map(tokens.map((token, i) => [token, i]));
  const id = (token: string) => ids.get(token)!;
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
      vocab: Object.fromEntries(ids),
    },
  };
}

function tokenizerConfig(maxTokens: number) {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxTokens,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    clean_up_tokenization_spaces: true,
  };
}
