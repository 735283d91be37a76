import type { TraceInput } from '../../shared/schema/trace.ts';
import { type event, trace } from './fixtures.ts';

const chunks = [
  { chunkId: 'good', sourceDocId: 'guide.md', score: 0.9, rank: 1, text: 'Opened items can be refunded within 14 days.' },
  { chunkId: 'bad', sourceDocId: 'other.md', score: 0.8, rank: 2, text: 'Shipping takes five days.' },
];

/**
 * One conversation on a shared device: a turn before signing in, then user `u-gone`'s, whose
 * correction says the first answer was wrong (the multi-turn attribution moves it there), then
 * the later turns given, a minute apart.
 */
export function signedInMidConversation(later: { userIdHash: string; query: string; answer: string }[] = []) {
  const sessionId = 'mixed';
  const t0 = Date.now() - 600_000;
  const turn = (i: number, userIdHash: string | undefined, query: string, answer: string): TraceInput =>
    trace({ userIdHash, sessionId, turnIndex: i, createdAt: t0 + i * 60_000, query, answer, retrievedChunks: chunks, rerankedChunks: undefined });
  const first = turn(0, undefined, 'And if the item was opened?', 'Opened items are refunded as store credit [1].');
  const theirs = turn(1, 'u-gone', 'Do you ship to Canada?', 'Yes, shipping to Canada takes 5 to 8 days [2].');
  const correction: Parameters<typeof event>[0] = {
    traceId: theirs.traceId,
    sessionId,
    clientTs: t0 + 100_000,
    signalType: 'correction',
    detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
  };
  return { sessionId, t0, first, theirs, correction, later: later.map((l, i) => turn(2 + i, l.userIdHash, l.query, l.answer)) };
}
