import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ceilingParamsFromArgs, DEFAULT_PARAMS, LOOP_CEILING_HELP, LOOP_EVAL_HELP, paramsFromArgs } from './params.ts';

describe('loop:eval flags', () => {
  it('keep the defaults the README table was made with when none is given', () => {
    expect(paramsFromArgs([])).toEqual(DEFAULT_PARAMS);
    expect(DEFAULT_PARAMS.corpusEmbeddings).toBe(false);
  });

  it('read numbers and switches, and refuse a negative or non-numeric count naming the flag', () => {
    const p = paramsFromArgs(['--cycles', '3', '--seed', '7', '--corpus-embeddings', '--review-minutes', '120']);
    expect(p).toMatchObject({ cycles: 3, seed: 7, corpusEmbeddings: true, reviewMinutesPerWeek: 120, sessions: DEFAULT_PARAMS.sessions });
    expect(() => paramsFromArgs(['--cycles=-1'])).toThrow('--cycles must be a whole number from 0 to 520, not "-1"');
    expect(() => paramsFromArgs(['--sessions', 'many'])).toThrow('--sessions must be a whole number from 0 to 1000000, not "many"');
  });

  it('take numbers as the commands do, refusing what Number() would read as one, and name the flag', () => {
    for (const given of ['0x10', '1e3', ' 5', '5 ', '', '2.5', '+3'])
      expect(() => paramsFromArgs([`--cycles=${given}`])).toThrow(`--cycles must be a whole number from 0 to 520, not ${JSON.stringify(given)}`);
    for (const given of ['1e-1', '.5', '0x0', ' 0.2', ''])
      expect(() => paramsFromArgs([`--reviewer-error=${given}`])).toThrow(`--reviewer-error must be a number from 0 to 1, not ${JSON.stringify(given)}`);
    expect(() => paramsFromArgs(['--retrieve-k', '0'])).toThrow('--retrieve-k must be a whole number from 1 to 100, not "0"');
    expect(() => paramsFromArgs(['--seconds-per-item', '0'])).toThrow('--seconds-per-item must be a number of seconds from 1 to 3600, not "0"');
    expect(paramsFromArgs(['--review-minutes', '7.5', '--curated-share', '0'])).toMatchObject({ reviewMinutesPerWeek: 7.5, curatedShare: 0 });
  });

  it('set every parameter a run reports, and refuse a share of 1 or more', () => {
    expect(paramsFromArgs(['--validation-share', '0.3', '--seconds-per-item', '30'])).toMatchObject({ validationShare: 0.3, secondsPerReviewItem: 30 });
    expect(() => paramsFromArgs(['--reviewer-error', '1.5'])).toThrow('--reviewer-error must be a number from 0 to 1, not "1.5"');
    expect(() => paramsFromArgs(['--validation-share', '1'])).toThrow('--validation-share must be a share below 1, not "1"');
    for (const flag of ['--validation-share', '--seconds-per-item', '--reviewer-error', '--data']) expect(LOOP_EVAL_HELP).toContain(flag);
  });

  it('find SciFact beside the repo wherever the command is run from', () => {
    expect(isAbsolute(DEFAULT_PARAMS.data)).toBe(true);
    expect(existsSync(join(DEFAULT_PARAMS.data, 'corpus.jsonl'))).toBe(true);
  });
});

describe('loop:ceiling flags', () => {
  it('are the ones it reads, numbers read as loop:eval reads them', () => {
    expect(ceilingParamsFromArgs(['--retrieve-k', '10', '--validation-share', '0.3', '--training-data', 'run/week-8.json'])).toEqual({
      data: DEFAULT_PARAMS.data,
      retrieveK: 10,
      validationShare: 0.3,
      trainingData: 'run/week-8.json',
    });
    expect(() => ceilingParamsFromArgs(['--retrieve-k', '1e1'])).toThrow('--retrieve-k must be a whole number from 1 to 100, not "1e1"');
    expect(() => ceilingParamsFromArgs(['--validation-share', '1'])).toThrow('--validation-share must be a share below 1, not "1"');
  });

  it("refuse loop:eval's others in one line with loop:ceiling's usage, and list only its own", () => {
    for (const flag of ['--cycles=3', '--sessions=10', '--browser-sessions=0', '--out=x.json', '--quiet'])
      expect(() => ceilingParamsFromArgs([flag])).toThrow(`; usage: npm run loop:ceiling -- [flags] (--help lists them)`);
    // The flags its help lists, one a line.
    expect(LOOP_CEILING_HELP.match(/^ {2}--\S+( [A-Z]+)?/gm)).toEqual([
      '  --data DIR',
      '  --retrieve-k K',
      '  --validation-share F',
      '  --training-data FILE',
      '  --help',
    ]);
  });
});
