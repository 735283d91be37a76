import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_MAX_ANSWERS, attribute, followUpOn, nextQuestions, type Turn } from './attribution.ts';

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

  it('keeps a correction on its own answer when "before" or "previous" in it is not said of an earlier answer', () => {
    const conversation: Turn[] = [
      { traceId: 's1', query: 'Do you ship to Canada?', answer: 'Yes, shipping to Canada takes 5 to 8 business days.', at: T0 },
      { traceId: 's2', query: 'How long do I have to return an item?', answer: 'You can return items within 30 days.', at: T0 + 60_000 },
    ];
    const a = attribute({ traceId: 's2', clientTs: T0 + 100_000, text: 'No, returns must be requested before 14 business days pass' }, conversation);
    expect(a.traceId).toBe('s2');
    const zh: Turn[] = [
      { traceId: 'z1', query: '你们发货到加拿大吗？', answer: '是的，发货到加拿大需要5到8个工作日。', at: T0 },
      { traceId: 'z2', query: '退货期限是多久？', answer: '您可以在30天内退货。', at: T0 + 60_000 },
    ];
    expect(attribute({ traceId: 'z2', clientTs: T0 + 100_000, text: '不对，要在14个工作日之前申请' }, zh).traceId).toBe('z2');
    // Nor does "previous" said of a policy.
    expect(attribute({ traceId: 's2', clientTs: T0 + 100_000, text: "That's the previous policy, returns now take 14 days" }, conversation).traceId).toBe('s2');
    expect(attribute({ traceId: 's2', clientTs: T0 + 100_000, text: 'Your previous answer was wrong: it takes 10 business days' }, conversation).traceId).toBe(
      's1',
    );
    // Said as pointing back, it still moves.
    expect(attribute({ traceId: 's2', clientTs: T0 + 100_000, text: 'What you said before was wrong: it takes 10 business days' }, conversation).traceId).toBe(
      's1',
    );
    expect(attribute({ traceId: 'z2', clientTs: T0 + 100_000, text: '你之前说的不对，要10个工作日' }, zh).traceId).toBe('z1');
  });

  it('says a turn was regenerated when the next trace repeats its turn, weighing it as its question asked again', () => {
    const first = { ...turns[1]!, turnIndex: 1 };
    const regenerated = { ...first, traceId: 't2b', answer: 'Opened items get store credit.', at: T0 + 70_000 };
    const asNextTurn = { ...regenerated, turnIndex: 2 };
    expect(nextQuestions([first, regenerated])(0)).toEqual({ kind: 'regenerated' });
    // The same question as the next turn instead: re-asked, and weighed the same.
    expect(nextQuestions([first, asNextTurn])(0)).toEqual({ kind: 'reasks', similarity: 1 });
    const regeneratedAfter = attribute({ traceId: 't2b', clientTs: T0 + 80_000, text: 'the earlier answer was wrong' }, [first, regenerated]);
    const reaskedAfter = attribute({ traceId: 't2b', clientTs: T0 + 80_000, text: 'the earlier answer was wrong' }, [first, asNextTurn]);
    expect(regeneratedAfter.scores[0]).toEqual(reaskedAfter.scores[0]);
    expect(regeneratedAfter.reason).toContain('the answer was regenerated');
    expect(reaskedAfter.reason).toContain('the next question re-asks it');
  });

  it("reads a next question sharing enough of an answer's terms, and not re-asking, as digging into it", () => {
    const [asked, next] = [turns[0]!, { ...turns[1]!, query: 'Is a receipt needed within the 30 days?' }];
    expect(followUpOn(asked, next)).toEqual({ kind: 'digs', overlap: 0.8 });
    // Another subject: no more than a conversation going on.
    expect(followUpOn(asked, turns[2]!)).toBeNull();
  });

  it('looks back three turns at most', () => {
    const long: Turn[] = [{ traceId: 't0', query: 'store credit policy', answer: 'Store credit never expires.', at: T0 - 60_000 }, ...turns];
    const a = attribute({ traceId: 't3', clientTs: T0 + 150_000, text: 'earlier you said store credit never expires, it does' }, long);
    expect(a.scores.map((s) => s.traceId)).toEqual(['t1', 't2', 't3']);
  });

  it('counts a regenerated answer within its turn, so three turns are still looked back over', () => {
    const numbered = turns.map((t, i) => ({ ...t, turnIndex: i }));
    const regenerated = { ...numbered[1]!, traceId: 't2b', answer: 'Opened items get store credit.', at: T0 + 70_000 };
    const withRegenerate = [numbered[0]!, numbered[1]!, regenerated, numbered[2]!];
    const a = attribute({ traceId: 't3', clientTs: T0 + 150_000, text: 'your first answer about unopened items and receipts was wrong' }, withRegenerate);
    expect(a.scores.map((s) => s.traceId)).toEqual(['t1', 't2', 't2b', 't3']);
    // One turn more (a fourth, regenerated or not) is out of it.
    const longer = [{ ...turns[0]!, traceId: 't0', turnIndex: -1 }, ...withRegenerate];
    expect(attribute({ traceId: 't3', clientTs: T0 + 150_000 }, longer).scores.map((s) => s.traceId)).toEqual(['t1', 't2', 't2b', 't3']);
  });

  it('holds at most ATTRIBUTION_MAX_ANSWERS answers, however often a turn was regenerated', () => {
    const numbered = turns.map((t, i) => ({ ...t, turnIndex: i }));
    const regenerations = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...numbered[1]!, traceId: `t2-${i}`, answer: 'Store credit only.', at: T0 + 60_000 + i * 1_000 }));
    const onLast = (list: Turn[]) =>
      attribute(
        { traceId: list.at(-1)!.traceId, clientTs: T0 + 200_000, text: 'your first answer, unopened items refunded within 30 days with a receipt, was wrong' },
        list,
      );
    // Within the bound the turn before the regenerated one is still a candidate, and the text wins it.
    const within = [numbered[0]!, ...regenerations(ATTRIBUTION_MAX_ANSWERS - 1)];
    expect(onLast(within).scores).toHaveLength(ATTRIBUTION_MAX_ANSWERS);
    expect(onLast(within).traceId).toBe('t1');
    // One regeneration more and it falls out: the window is the last answers, the signal's own included.
    const past = [numbered[0]!, ...regenerations(ATTRIBUTION_MAX_ANSWERS)];
    expect(onLast(past).scores).toHaveLength(ATTRIBUTION_MAX_ANSWERS);
    expect(onLast(past).scores.map((s) => s.traceId)).not.toContain('t1');
  });

  it('weighs each conversation by its own next questions, however many of its signals it attributes', () => {
    const onLast = { traceId: 't3', clientTs: T0 + 150_000 };
    const reasked: Turn[] = [turns[0]!, turns[1]!, { ...turns[2]!, query: 'And what if the item was opened, please?' }];
    const score = (a: ReturnType<typeof attribute>, traceId: string) => a.scores.find((s) => s.traceId === traceId)!.score;
    const plain = attribute(onLast, turns);
    const again = attribute(onLast, reasked);
    // The same turns, same answers: only the question after t2 differs, and only t2's score moves.
    expect(score(again, 't2')).toBeGreaterThan(score(plain, 't2') + 0.2);
    expect(score(again, 't1')).toBe(score(plain, 't1'));
    // Asked again with other signals, or on a copy, a conversation scores as the first time.
    attribute({ traceId: 't2', clientTs: T0 + 90_000 }, reasked);
    expect(attribute(onLast, reasked)).toEqual(again);
    expect(attribute(onLast, [...turns])).toEqual(plain);
  });

  it('leaves a signal on the first turn alone', () => {
    expect(attribute({ traceId: 't1', clientTs: T0 + 5_000 }, turns).traceId).toBe('t1');
  });

  it('reads a next question as re-asking from a similarity of 0.5, and as digging in only above 20% of its terms in the answer', () => {
    const asked = (query: string, answer = '') => ({ traceId: 'a', query, answer, at: T0 });
    const next = (query: string) => ({ traceId: 'b', query, answer: '', at: T0 + 60_000 });
    // "price" and "prize" share two of their eight letter pairs: a similarity of 0.5.
    expect(followUpOn(asked('Price?'), next('Prize?'))).toEqual({ kind: 'reasks', similarity: 0.5 });
    const answered = asked('Can opened items be returned?', 'Opened items can be returned within 14 days of delivery.');
    // One of five terms in the answer: 20%, not over it.
    expect(followUpOn(answered, next('Does delivery to Norway cost extra money?'))).toBeNull();
    expect(followUpOn(answered, next('Does delivery to Norway cost extra?'))).toEqual({ kind: 'digs', overlap: 0.25 });
  });

  it('weighs recency at 0.15, halving each minute, beside the own turn’s 0.35, and no more for a signal dated before the answer', () => {
    const unrelated: Turn[] = [
      { traceId: 'a', query: 'Do you ship to Canada?', answer: 'Yes, shipping to Canada takes 5 to 8 days.', at: T0 },
      { traceId: 'b', query: 'How long is the warranty?', answer: 'The warranty lasts two years.', at: T0 + 60_000 },
    ];
    // One minute after its own answer, two after the one before: 0.35 + 0.075, and 0.0375.
    expect(attribute({ traceId: 'b', clientTs: T0 + 120_000 }, unrelated).scores).toEqual([
      { traceId: 'a', score: 0.038 },
      { traceId: 'b', score: 0.425 },
    ]);
    // A browser clock behind the answer's: recency at its full 0.15, not more.
    expect(attribute({ traceId: 'b', clientTs: T0 + 30_000 }, unrelated).scores[1]).toEqual({ traceId: 'b', score: 0.5 });
    // Text sharing a tenth of its terms with the earlier answer moves it by 0.6 × 0.1.
    const text = 'Canada is fine but the courier lost my parcel and support never replied to any email';
    expect(attribute({ traceId: 'b', clientTs: T0 + 120_000, text }, unrelated).scores[0]).toEqual({ traceId: 'a', score: 0.098 });
  });
});
