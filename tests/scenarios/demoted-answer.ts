/**
 * The session the trace view exists for: the reranker pushed the chunk that answers from first to
 * third, the answer quoted the wrong one, and the user thumbed it down, flagged the source and
 * wrote a correction the demoted chunk contains; then asked a second question. Seeded by the
 * trace view's workerd test and the console's Chromium test, so both read the same story.
 */
import type { FeedbackEventInput } from '../../shared/schema/event.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';

export const refund = { chunkId: 'refund-1', sourceDocId: 'refunds.md', text: 'Opened items can be refunded within 14 days of delivery.' };
export const shipping = { chunkId: 'shipping-1', sourceDocId: 'shipping.md', text: 'Shipping to Canada takes 5 to 8 business days.' };
export const credit = { chunkId: 'credit-1', sourceDocId: 'credit.md', text: 'Store credit is issued for opened items and never expires.' };

export function demotedAnswerSession(sessionId: string, start: number): { first: TraceInput; second: TraceInput; events: FeedbackEventInput[] } {
  const first: TraceInput = {
    traceId: `${sessionId}-1`,
    sessionId,
    turnIndex: 0,
    query: 'refund for opened items?',
    rewrittenQuery: 'refund opened items policy',
    retrieval: { topK: 3, threshold: 0.2, embeddingModel: 'bge-small' },
    retrievedChunks: [
      { ...refund, score: 0.9, rank: 1 },
      { ...shipping, score: 0.8, rank: 2 },
      { ...credit, score: 0.7, rank: 3 },
    ],
    rerankedChunks: [
      { ...shipping, score: 0.95, rank: 1 },
      { ...credit, score: 0.6, rank: 2 },
      { ...refund, score: 0.3, rank: 3 },
    ],
    answer: 'Shipping to Canada takes 5 to 8 business days. [1]',
    model: 'demo-llm',
    rerankerVersion: 'rr-1',
    createdAt: start,
  };
  const second: TraceInput = {
    ...first,
    traceId: `${sessionId}-2`,
    turnIndex: 1,
    query: 'and store credit?',
    rewrittenQuery: undefined,
    createdAt: start + 30_000,
  };
  const at = (n: number, ms: number) => ({
    eventId: `${sessionId}-e${n}`,
    traceId: first.traceId,
    sessionId,
    clientTs: start + ms,
    shownMs: ms,
    widgetVersion: '0.1.0',
  });
  const events: FeedbackEventInput[] = [
    { ...at(0, 9_000), signalType: 'thumbs_down' },
    { ...at(1, 12_000), signalType: 'wrong_source', detail: { chunkId: shipping.chunkId } },
    { ...at(2, 20_000), signalType: 'correction', detail: { text: 'Opened items can be refunded within 14 days of delivery' } },
  ];
  return { first, second, events };
}
