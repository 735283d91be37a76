import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { zhCN } from '../../i18n/zh-CN.ts';
import { FILTERS, filterIssue } from './worst-filters.ts';

const s = en;
const filter = (name: string) => FILTERS.find((f) => f.name === name)!;

describe('filterIssue', () => {
  it('says why a number filter was refused from its bounds', () => {
    expect(filterIssue(filter('days'), '0', s)).toBe('must be at least 1');
    expect(filterIssue(filter('days'), '4000', s)).toBe('must be at most 3650');
    expect(filterIssue(filter('minSignals'), '1.5', s)).toBe('must be a whole number');
    expect(filterIssue(filter('below'), '-0.25', s)).toBe('is not valid');
    expect(filterIssue(filter('below'), 'abc', s)).toBe('must be a number');
    expect(filterIssue(filter('model'), 'x', s)).toBe('is not valid');
  });

  it('says it in Chinese too', () => {
    expect(filterIssue(filter('days'), '0', zhCN)).toBe('不能小于 1');
  });
});
