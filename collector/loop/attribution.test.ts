import { describe, expect, it } from 'vitest';
import { attribute, type Turn } from './attribution.ts';

const T0 = Date.UTC(2026, 10, 1, 12);
const turns: Turn[] = [
  { traceId: 't1', query: 'What are the refund conditions?', answer: 'Unopened items can be refunded within 30 days with a receipt.', at: T0 },
  { traceId: 't2', query: 'And what if the item was opened?', answer: 'Opened items are refunded as store credit.', at: T0 + 60_000 },
  { traceId: 't3', query: 'Do you ship to Canada?', answer: 'Yes, shipping to Canada takes 5 to 8 days.', at: T0 + 120_000 },
];

describe('multi-turn attribution', () => {
  it('keeps a plain thumbs-down on the answer it was given on', () => {
    const a = attribute({ traceId: 't2', clientTs: T0 + 90_000 }, turns.slice(0, 2));
    expect(a.traceId).toBe('t2');
    expect(a.reason).toContain('the turn it was given on');
  });

  it('moves a late correction to the earlier answer it talks about', () => {
    const a = attribute(
      { traceId: 't3', clientTs: T0 + 150_000, text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
      turns,
    );
    expect(a.traceId).toBe('t2');
    expect(a.reason).toContain('points back');
    expect(a.scores.map((s) => s.traceId)).toEqual(['t1', 't2', 't3']);
  });

  it('looks back three turns at most', () => {
    const long: Turn[] = [{ traceId: 't0', query: 'store credit policy', answer: 'Store credit never expires.', at: T0 - 60_000 }, ...turns];
    const a = attribute({ traceId: 't3', clientTs: T0 + 150_000, text: 'earlier you said store credit never expires, it does' }, long);
    expect(a.scores.map((s) => s.traceId)).toEqual(['t1', 't2', 't3']);
  });

  it('leaves a signal on the first turn alone', () => {
    expect(attribute({ traceId: 't1', clientTs: T0 + 5_000 }, turns).traceId).toBe('t1');
  });
});
