/**
 * The team's curated eval suite, as a team would build it at launch: each curated question with
 * the chunks the demo's retrieval returns for it (BM25's top `retrieveK`, as the demo's traces log
 * them) and the collection's judgements of those chunks' documents. A question none of whose
 * relevant documents is retrieved cannot tell rankers apart, and is left out.
 */
import { type Chunk, passage } from '../../demo/corpus/chunk.ts';
import { Bm25Index } from '../../shared/bm25.ts';
import type { SuiteQuery } from '../../shared/schema/eval-suite.ts';
import type { JudgedQuery } from './collection.ts';
import { type Admin, adminCall } from './collector-api.ts';

export function curatedSuite(chunks: readonly Chunk[], questions: readonly JudgedQuery[], retrieveK: number): { id: string; body: SuiteQuery }[] {
  const index = new Bm25Index(chunks);
  return questions.flatMap((q) => {
    const hits = index.search(q.text, retrieveK);
    const judgements = hits.flatMap(({ doc }) => (q.relevant.has(doc.sourceDocId) ? [{ chunkId: doc.chunkId, relevance: 1 as const }] : []));
    if (!judgements.length) return [];
    const candidates = hits.map(({ doc, score }) => ({ chunkId: doc.chunkId, sourceDocId: doc.sourceDocId, text: passage(doc), score }));
    return [{ id: q.id, body: { query: q.text, candidates, judgements } }];
  });
}

/** Sends the suite, one question at a time (each PUT replaces its question, so a retry is harmless). */
export async function sendCuratedSuite(a: Admin, suite: readonly { id: string; body: SuiteQuery }[]): Promise<void> {
  for (const { id, body } of suite) await adminCall(a, 'PUT', `/v1/admin/eval-suite/${encodeURIComponent(id)}`, body);
}
