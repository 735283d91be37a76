import { describe, expect, it } from 'vitest';
import { duration, durations } from './duration.ts';

describe('duration', () => {
  const ms = [850.4, 12_000, 270_000, 11_520_000, 131_004_000];

  it('writes a duration in the largest unit that keeps it readable', () => {
    expect(ms.map((x) => duration(x, 'en'))).toEqual(['850 ms', '12 sec', '4.5 min', '3.2 hr', '1.5 days']);
  });

  it("says its unit in the reader's language", () => {
    expect(ms.map((x) => duration(x, 'zh-CN'))).toEqual(['850毫秒', '12秒', '4.5分钟', '3.2小时', '1.5天']);
  });
});

describe('durations', () => {
  it('writes an axis in the unit of its longest duration', () => {
    expect(durations([0, 43_200_000, 86_400_000, 129_600_000], 'en')).toEqual(['0 days', '0.5 days', '1 day', '1.5 days']);
    expect(durations([0, 250, 500], 'en')).toEqual(['0 ms', '250 ms', '500 ms']);
    expect(durations([], 'en')).toEqual([]);
  });
});
