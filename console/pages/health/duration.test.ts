import { describe, expect, it } from 'vitest';
import { duration } from './duration.ts';

describe('duration', () => {
  const ms = [850.4, 12_000, 270_000, 11_520_000, 131_004_000];

  it('writes a duration in the largest unit that keeps it readable', () => {
    expect(ms.map((x) => duration(x, 'en'))).toEqual(['850 ms', '12 sec', '4.5 min', '3.2 hr', '1.5 days']);
  });

  it("says its unit in the reader's language", () => {
    expect(ms.map((x) => duration(x, 'zh-CN'))).toEqual(['850毫秒', '12秒', '4.5分钟', '3.2小时', '1.5天']);
  });
});
