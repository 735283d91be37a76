import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, paramsFromArgs } from './params.ts';

describe('loop:eval flags', () => {
  it('keep the defaults the README table was made with when none is given', () => {
    expect(paramsFromArgs([])).toEqual(DEFAULT_PARAMS);
    expect(DEFAULT_PARAMS.corpusEmbeddings).toBe(false);
  });

  it('read numbers and switches, and refuse a negative or non-numeric count naming the flag', () => {
    const p = paramsFromArgs(['--cycles', '3', '--seed', '7', '--corpus-embeddings', '--review-minutes', '120']);
    expect(p).toMatchObject({ cycles: 3, seed: 7, corpusEmbeddings: true, reviewMinutesPerWeek: 120, sessions: DEFAULT_PARAMS.sessions });
    expect(() => paramsFromArgs(['--cycles=-1'])).toThrow(/--cycles must be a non-negative number/);
    expect(() => paramsFromArgs(['--sessions', 'many'])).toThrow(/--sessions must be a non-negative number, not many/);
  });
});
