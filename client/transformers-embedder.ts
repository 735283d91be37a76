/**
 * An Embedder backed by transformers.js (Node only): a sentence-embedding model's
 * feature-extraction pipeline with mean pooling and normalisation, loaded on first use and shared
 * by every embedder of the same model, so a retraining run pays for one load.
 */
import { readFileSync } from 'node:fs';
import { env, pipeline } from '@xenova/transformers';
import { type Embedder, WEIGHTS_FIELD } from '../shared/embedder.ts';

export { cosine, type Embedder } from '../shared/embedder.ts';

export interface TransformersEmbedderOptions {
  /** The model's name: on the model hub, or a directory under `localModelPath`. */
  model?: string;
  /** A directory holding `<model>/` (config.json, tokenizer files, onnx/), for machines without the hub. */
  localModelPath?: string;
  /** Whether the model hub may be asked; by default only when no `localModelPath` is given. */
  allowRemoteModels?: boolean;
  /** Loads `onnx/model_quantized.onnx` (the default: smaller and faster) rather than `onnx/model.onnx`. */
  quantized?: boolean;
  /** Texts per inference call: bounds memory on long lists. */
  batchSize?: number;
}

/** A small, widely used English sentence-embedding model (384 dimensions). */
export const DEFAULT_EMBEDDING_MODEL = 'Xenova/all-MiniLM-L6-v2';
const DEFAULT_BATCH_SIZE = 32;

/** What the pipeline is called with and answers: a [texts, dim] tensor of pooled, unit-length vectors. */
type Extractor = (texts: string[], options: { pooling: 'mean'; normalize: true }) => Promise<{ dims: number[]; data: ArrayLike<number> }>;

interface LoadSettings {
  model: string;
  localModelPath: string | undefined;
  allowRemoteModels: boolean;
  quantized: boolean;
  /** The weights' hash the model's config.json records, if it records one. */
  weights: string | undefined;
}

/** One load per model, path and weights file, shared by every embedder in the process. */
const pipelines = new Map<string, Promise<Extractor>>();
/** transformers.js reads where to load from in one global `env`, so loads take turns. */
let loadQueue: Promise<unknown> = Promise.resolve();
let loads = 0;

/** How many pipelines this process has loaded: shows that embedders of one model share a load. */
export function pipelineLoadCount(): number {
  return loads;
}

export function createTransformersEmbedder(options: TransformersEmbedderOptions = {}): Embedder {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
  const settings: LoadSettings = {
    model,
    localModelPath: options.localModelPath,
    allowRemoteModels: options.allowRemoteModels ?? options.localModelPath === undefined,
    quantized: options.quantized ?? true,
    weights: recordedWeights(model, options.localModelPath),
  };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);

  return {
    // The weights are part of the identity: quantized vectors differ from full-precision ones, and a
    // model built again under its name from another corpus differs from the one a reranker learnt on.
    id: `${settings.model}${settings.weights === undefined ? '' : `@${settings.weights}`}:${settings.quantized ? 'quantized' : 'fp32'}`,
    async embed(texts) {
      checkTexts(texts);
      if (texts.length === 0) return [];
      const extract = await sharedPipeline(settings);
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const output = await extract(texts.slice(start, start + batchSize), { pooling: 'mean', normalize: true });
        const [rows = 0, dim = 0] = output.dims;
        const data = Float32Array.from(output.data);
        for (let row = 0; row < rows; row++) {
          const v = data.slice(row * dim, (row + 1) * dim);
          // Normalising a text with no known word divides zero by zero: it has no direction.
          vectors.push(v.every(Number.isFinite) ? v : new Float32Array(dim));
        }
      }
      return vectors;
    },
  };
}

/**
 * A TypeError naming what is not a text. Plain JavaScript can pass a string where the list belongs,
 * which the pipeline would take 32 characters at a time, a vector for each piece.
 */
function checkTexts(texts: unknown): asserts texts is readonly string[] {
  const kind = (x: unknown) =>
    x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x === 'object' ? 'an object' : `${/^[aeiou]/.test(typeof x) ? 'an' : 'a'} ${typeof x}`;
  if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, not ${kind(texts)}`);
  const i = texts.findIndex((t) => typeof t !== 'string');
  if (i >= 0) throw new TypeError(`texts[${i}] must be a string, not ${texts[i] === undefined ? 'undefined' : kind(texts[i])}`);
}

/**
 * The weights' hash in `<dir>/<model>/config.json` (the repo's model builders write one), read when
 * the embedder is made: its id must be known before anything is embedded. None for a model the
 * directory does not hold (yet) or whose config records none, as the hub's: its name pins its weights.
 */
function recordedWeights(model: string, localModelPath: string | undefined): string | undefined {
  // Where transformers.js looks first, when it looks on disk.
  const dir = localModelPath ?? (env.allowLocalModels ? env.localModelPath : undefined);
  if (!dir) return undefined;
  try {
    const weights: unknown = JSON.parse(readFileSync(`${dir}/${model}/config.json`, 'utf8'))[WEIGHTS_FIELD];
    return typeof weights === 'string' && /^[0-9a-f]{1,64}$/.test(weights) ? weights : undefined;
  } catch {
    return undefined;
  }
}

function sharedPipeline(settings: LoadSettings): Promise<Extractor> {
  // With the weights: a model built again under its name is loaded again, not served by the old pipeline.
  const key = JSON.stringify([settings.model, settings.localModelPath, settings.allowRemoteModels, settings.quantized, settings.weights]);
  const cached = pipelines.get(key);
  if (cached) return cached;
  const loading = loadQueue.then(() => load(settings));
  loadQueue = loading.catch(() => undefined);
  pipelines.set(key, loading);
  // A failed load is not kept: the model may be put in place and asked for again.
  loading.catch(() => pipelines.get(key) === loading && pipelines.delete(key));
  return loading;
}

async function load(settings: LoadSettings): Promise<Extractor> {
  const saved = { allowRemoteModels: env.allowRemoteModels, localModelPath: env.localModelPath, useFSCache: env.useFSCache };
  env.allowRemoteModels = settings.allowRemoteModels;
  if (settings.localModelPath !== undefined) {
    env.localModelPath = settings.localModelPath;
    // The directory is the only source: a hub download cached under the same name must not stand in for it.
    env.useFSCache = false;
  }
  const directory = env.localModelPath;
  try {
    const extractor = (await pipeline('feature-extraction', settings.model, { quantized: settings.quantized })) as unknown as Extractor;
    loads++;
    return extractor;
  } catch (cause) {
    const where = settings.allowRemoteModels ? `${directory} or the model hub` : `${directory} (remote models are off)`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new Error(`Embedding model "${settings.model}" could not be loaded from ${where}: ${reason}`, { cause });
  } finally {
    Object.assign(env, saved);
  }
}
