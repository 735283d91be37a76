import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import { boostedQuery, EARLIER_TURN_WEIGHT, FOLLOW_UP_MAX_TERMS, followUpTerms } from './follow-up.ts';

const terms = (...t: string[]) => new Map(t.map((x) => [x, 1]));

describe('followUpTerms', () => {
  it('adds the earlier turn to a short question at a lower weight, and leaves one that names enough alone', () => {
    const earlier = terms('aspirin', 'dose');
    expect(followUpTerms(terms('side', 'effect'), earlier)).toEqual(
      new Map([
        ['side', 1],
        ['effect', 1],
        ['aspirin', EARLIER_TURN_WEIGHT],
        ['dose', EARLIER_TURN_WEIGHT],
      ]),
    );
    const long = terms(...Array.from({ length: FOLLOW_UP_MAX_TERMS + 1 }, (_, i) => `t${i}`));
    expect(followUpTerms(long, earlier)).toBeUndefined();
    expect(followUpTerms(terms('side'))).toBeUndefined();
    expect(followUpTerms(terms('side'), new Map())).toBeUndefined();
  });

  it('reads a question of stop words alone as the earlier turn, and fades turns further back', () => {
    const second = followUpTerms(terms('dose'), terms('aspirin'))!;
    expect(followUpTerms(new Map(), second)).toEqual(
      new Map([
        ['dose', EARLIER_TURN_WEIGHT],
        ['aspirin', EARLIER_TURN_WEIGHT ** 2],
      ]),
    );
  });

  it('drops the words that point back from a follow-up, and counts the terms without them', () => {
    const earlier = terms('gate', 'promote');
    expect(followUpTerms(terms('about', 'thresholds'), earlier)).toEqual(
      new Map([
        ['thresholds', 1],
        ['gate', EARLIER_TURN_WEIGHT],
        ['promote', EARLIER_TURN_WEIGHT],
      ]),
    );
    expect(followUpTerms(terms('anything', 'else', 'about', 'more', 'limits', 'too'), earlier)?.has('limits')).toBe(true);
    // Searched alone, a question keeps all its words.
    expect(followUpTerms(terms('about', 'thresholds'))).toBeUndefined();
  });

  it('adds to a term the question repeats from the earlier turn', () => {
    expect(followUpTerms(terms('aspirin'), terms('aspirin'))!.get('aspirin')).toBe(1 + EARLIER_TURN_WEIGHT);
  });
});

describe('boostedQuery', () => {
  it("writes weighted terms in Lucene's boost notation, heaviest first", () => {
    expect(
      boostedQuery(
        new Map([
          ['aspirin', 0.5],
          ['side', 1],
          ['effect', 2],
          ['dose', 1 / 3],
        ]),
      ),
    ).toBe('effect^2 side aspirin^0.5 dose^0.333');
  });

  it("leaves out the lightest terms past the trace's limit", () => {
    const many = new Map(Array.from({ length: 2000 }, (_, i) => [`term${i}`, 1 - i / 10_000]));
    const q = boostedQuery(many);
    expect(q.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(q.startsWith('term0 term1^')).toBe(true);
    expect(q.split(' ').length).toBeLessThan(2000);
  });
});
