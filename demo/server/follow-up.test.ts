import { describe, expect, it } from 'vitest';
import { EARLIER_TURN_WEIGHT, FOLLOW_UP_MAX_TERMS, retrievalTerms } from './follow-up.ts';

const terms = (...t: string[]) => new Map(t.map((x) => [x, 1]));

describe('retrievalTerms', () => {
  it('adds the earlier turn to a short question at a lower weight, and leaves one that names enough alone', () => {
    const earlier = terms('aspirin', 'dose');
    expect(retrievalTerms(terms('side', 'effect'), earlier)).toEqual(
      new Map([
        ['side', 1],
        ['effect', 1],
        ['aspirin', EARLIER_TURN_WEIGHT],
        ['dose', EARLIER_TURN_WEIGHT],
      ]),
    );
    const long = terms(...Array.from({ length: FOLLOW_UP_MAX_TERMS + 1 }, (_, i) => `t${i}`));
    expect(retrievalTerms(long, earlier)).toEqual(long);
    expect(retrievalTerms(terms('side'))).toEqual(terms('side'));
  });

  it('reads a question of stop words alone as the earlier turn, and fades turns further back', () => {
    const first = terms('aspirin');
    const second = retrievalTerms(terms('dose'), first);
    const third = retrievalTerms(new Map(), second);
    expect(third).toEqual(
      new Map([
        ['dose', EARLIER_TURN_WEIGHT],
        ['aspirin', EARLIER_TURN_WEIGHT ** 2],
      ]),
    );
  });

  it('adds to a term the question repeats from the earlier turn', () => {
    expect(retrievalTerms(terms('aspirin'), terms('aspirin')).get('aspirin')).toBe(1 + EARLIER_TURN_WEIGHT);
  });
});
