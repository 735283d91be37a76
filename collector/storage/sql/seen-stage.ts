/**
 * The stage of a trace's chunks that the model saw, as SQL: 'reranked' when a reranker ran, else
 * 'retrieved'. Not `max(stage)`: 'reranked' sorts before 'retrieved'.
 */
export const seenStageSql = (projectId: string, traceId: string) =>
  `(case when exists (select 1 from trace_chunks x where x.project_id = ${projectId} and x.trace_id = ${traceId} and x.stage = 'reranked') then 'reranked' else 'retrieved' end)`;
