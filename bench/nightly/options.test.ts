import { describe, expect, it } from 'vitest';
import { decimalNumber, wholeNumber } from '../../scripts/cli.ts';
import { numberSetting } from './options.ts';

describe('the nightly benchmarks’ settings', () => {
  const cap = (given: string | undefined) => numberSetting('BENCH_NIGHTLY_CAP_S', given, 600, (name, g) => wholeNumber(name, g, 1, 86_400, 'seconds'));

  it('take a plain number, and their default when unset', () => {
    expect(cap('1500')).toBe(1500);
    expect(cap(undefined)).toBe(600);
    expect(numberSetting('BENCH_NIGHTLY_SCALE', '0.1', 1, (name, g) => decimalNumber(name, g, 0.001, 1))).toBe(0.1);
  });

  it('refuse what Number() would take leniently, naming the variable', () => {
    for (const given of ['1e3', '0x10', ' 5', '', '5s']) expect(() => cap(given)).toThrow(/^BENCH_NIGHTLY_CAP_S must be a whole number of seconds/);
    expect(() => numberSetting('BENCH_NIGHTLY_SCALE', '2', 1, (name, g) => decimalNumber(name, g, 0.001, 1))).toThrow(/BENCH_NIGHTLY_SCALE .* from 0.001 to 1/);
  });
});
