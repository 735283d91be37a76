import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import { boostedQuery, EARLIER_TERM_FLOOR, EARLIER_TURN_WEIGHT, FOLLOW_UP_MAX_TERMS, leansOnEarlierTurn, withEarlierTurn } from './follow-up.ts';

const terms = (...t: string[]) => new Map(t.map((x) => [x, 1]));

describe('a follow-up', () => {
  it('leans on the turn before it when it names too little, words pointing back aside', () => {
    expect(leansOnEarlierTurn(terms('side', 'effects'))).toBe(true);
    expect(leansOnEarlierTurn(new Map())).toBe(true);
    expect(leansOnEarlierTurn(terms(...Array.from({ length: FOLLOW_UP_MAX_TERMS + 1 }, (_, i) => `t${i}`)))).toBe(false);
    expect(leansOnEarlierTurn(terms('anything', 'else', 'about', 'more', 'limits', 'too'))).toBe(true);
  });

  it('is searched with its own subject and the earlier turn at a lower weight, without the words pointing back', () => {
    expect(withEarlierTurn(terms('about', 'thresholds'), terms('gate', 'promote'))).toEqual(
      new Map([
        ['thresholds', 1],
        ['gate', EARLIER_TURN_WEIGHT],
        ['promote', EARLIER_TURN_WEIGHT],
      ]),
    );
    // A term the question repeats from the earlier turn counts for both.
    expect(withEarlierTurn(terms('aspirin'), terms('aspirin')).get('aspirin')).toBe(1 + EARLIER_TURN_WEIGHT);
  });

  it('fades turns further back, and drops them below the floor, so a long chain stays small', () => {
    const second = withEarlierTurn(terms('dose'), terms('aspirin'));
    expect(withEarlierTurn(new Map(), second)).toEqual(
      new Map([
        ['dose', EARLIER_TURN_WEIGHT],
        ['aspirin', EARLIER_TURN_WEIGHT ** 2],
      ]),
    );
    let chain = terms('aspirin');
    for (let i = 0; i < 50; i++) chain = withEarlierTurn(terms(`t${i}`), chain);
    expect(Math.min(...chain.values())).toBeGreaterThanOrEqual(EARLIER_TERM_FLOOR);
    expect(chain.size).toBeLessThanOrEqual(4);
    expect(chain.has('aspirin')).toBe(false);
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

  it("leaves out terms past the trace's limit, an oversized one without the rest", () => {
    const many = new Map(Array.from({ length: 2000 }, (_, i) => [`term${i}`, 1 - i / 10_000]));
    const q = boostedQuery(many);
    expect(q.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(q.startsWith('term0 term1^')).toBe(true);
    expect(q.split(' ').length).toBeLessThan(2000);
    expect(
      boostedQuery(
        new Map([
          ['x'.repeat(MAX_QUERY_CHARS), 1.5],
          ['side', 1],
        ]),
      ),
    ).toBe('side');
  });
});
