import { describe, expect, it } from 'vitest';
import { DURATION_STEPS, duration, durations } from './duration.ts';

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
  it('writes an axis in the unit its step is a whole number of', () => {
    expect(durations([0, 43_200_000, 86_400_000, 129_600_000], 'en')).toEqual(['0 hr', '12 hr', '24 hr', '36 hr']);
    expect(durations([0, 86_400_000, 172_800_000], 'en')).toEqual(['0 days', '1 day', '2 days']);
    expect(durations([0, 15_000, 30_000, 45_000, 60_000], 'en')).toEqual(['0 sec', '15 sec', '30 sec', '45 sec', '60 sec']);
    expect(durations([0, 2, 4], 'en')).toEqual(['0 ms', '2 ms', '4 ms']);
    expect(durations([5_400_000], 'en')).toEqual(['1.5 hr']);
    expect(durations([], 'en')).toEqual([]);
  });

  it('ticks by whole numbers of one unit', () => {
    for (const step of DURATION_STEPS) expect(durations([0, step], 'en')[1]).toMatch(/^\d+ \S+$/);
  });
});
