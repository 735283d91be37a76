/**
 * Embedding vectors for one retraining: every query and chunk text training and the gate will
 * look at, embedded once (texts repeat across lists), by query key and by chunk id and text.
 */
import type { Embedder } from '../../shared/embedder.ts';
import { queryKey } from '../../shared/terms.ts';
import type { TrainingData } from '../../shared/training/data.ts';
import type { EvalQuery } from '../../shared/training/gate.ts';
import { chunkVectorKey, type EmbeddingVectors } from '../../shared/training/train.ts';

export interface TextVectors extends EmbeddingVectors {
  /** By query text, for ranking eval queries. */
  byQuery: ReadonlyMap<string, Float32Array>;
}

export async function embedAll(embedder: Embedder, data: TrainingData, evalQueries: readonly EvalQuery[]): Promise<TextVectors> {
  // A text's keys: stop words alone are keyed by the answer (`traceQueryKey`), so one text can have many.
  const queries = new Map<string, Set<string>>();
  const add = (text: string, key: string) => queries.set(text, (queries.get(text) ?? new Set()).add(key));
  for (const c of data.confirmed) add(c.query, c.queryKey);
  for (const q of evalQueries) add(q.query, queryKey(q.query));
  // By id and text: a chunk edited between traces keeps its id, and each trace ranked its own text.
  const chunks = new Map<string, string>();
  for (const list of data.lists) for (const c of list.candidates) chunks.set(chunkVectorKey(c), c.text);
  for (const q of evalQueries) for (const c of q.candidates) chunks.set(chunkVectorKey(c), c.text);

  const queryTexts = [...queries.keys()];
  const chunkKeys = [...chunks.keys()];
  const [qv, cv] = [await embedder.embed(queryTexts), await embedder.embed([...chunks.values()])];
  const byQuery = new Map(queryTexts.map((t, i) => [t, qv[i]!]));
  return {
    embedder: embedder.id,
    byQuery,
    queries: new Map(queryTexts.flatMap((t, i) => [...queries.get(t)!].map((key) => [key, qv[i]!] as const))),
    chunks: new Map(chunkKeys.map((key, i) => [key, cv[i]!])),
  };
}
