import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, LOOP_EVAL_HELP, paramsFromArgs } from './params.ts';

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

  it('set every parameter a run reports, and refuse a share of 1 or more', () => {
    expect(paramsFromArgs(['--validation-share', '0.3', '--seconds-per-item', '30'])).toMatchObject({ validationShare: 0.3, secondsPerReviewItem: 30 });
    expect(() => paramsFromArgs(['--reviewer-error', '1.5'])).toThrow(/--reviewer-error must be a share below 1/);
    for (const flag of ['--validation-share', '--seconds-per-item', '--reviewer-error', '--data']) expect(LOOP_EVAL_HELP).toContain(flag);
  });

  it('find SciFact beside the repo wherever the command is run from', () => {
    expect(isAbsolute(DEFAULT_PARAMS.data)).toBe(true);
    expect(existsSync(join(DEFAULT_PARAMS.data, 'corpus.jsonl'))).toBe(true);
  });
});
