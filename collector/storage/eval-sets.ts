import { JOIN_CHUNK_TEXT } from './sql/chunk-text.ts';

export interface EvalSetVersion {
  layer: string;
  version: string;
  items: number;
  createdAt: number;
}

export async function evalSetVersions(d1: D1Database, projectId: string): Promise<EvalSetVersion[]> {
  const { results } = await d1
    .prepare('select layer, version, items, created_at as createdAt from eval_sets where project_id = ? order by version desc, layer')
    .bind(projectId)
    .all<EvalSetVersion>();
  return results;
}

export interface EvalItemLine {
  layer: string;
  version: string;
  query: string;
  queryKey: string;
  traceId: string;
  /** The chunks retrieval returned for it, in rank order, to be reranked by the model under test. */
  candidates: { chunkId: string; sourceDocId: string; rank: number; score: number; text: string }[];
  judgements: Record<string, number>;
  source: string;
}

/** One layer's version, as lines for JSONL. */
export async function evalItems(d1: D1Database, projectId: string, layer: string, version: string): Promise<EvalItemLine[]> {
  const { results } = await d1
    .prepare(
      `select i.layer, i.version, i.query, i.query_key as queryKey, i.trace_id as traceId, i.judgements, i.source,
         (select json_group_array(json_object('chunkId', chunk_id, 'sourceDocId', source_doc_id, 'rank', rank, 'score', score, 'text', text))
            from (select c.*, ct.text from trace_chunks c ${JOIN_CHUNK_TEXT} where c.project_id = i.project_id and c.trace_id = i.trace_id and c.stage = 'retrieved' order by c.rank)) as candidates
       from eval_items i where i.project_id = ? and i.layer = ? and i.version = ? order by i.position`,
    )
    .bind(projectId, layer, version)
    .all<Omit<EvalItemLine, 'candidates' | 'judgements'> & { candidates: string; judgements: string }>();
  return results.map((r) => ({ ...r, candidates: JSON.parse(r.candidates), judgements: JSON.parse(r.judgements) }));
}
