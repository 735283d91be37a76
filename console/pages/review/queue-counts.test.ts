import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { zhCN } from '../../i18n/zh-CN.ts';
import { queueCounts } from './queue-counts.ts';

describe('queueCounts', () => {
  it('names only the reasons that hold items, in every language', () => {
    const none = { threshold: 0, budget: 0, curated: 0 };
    expect(queueCounts({ pending: 4, held: 0, heldFor: none }, en)).toBe('4 waiting · 0 held');
    expect(queueCounts({ pending: 4, held: 3, heldFor: { threshold: 2, budget: 0, curated: 1 } }, en)).toBe(
      '4 waiting · 3 held: 2 below the mining threshold, 1 on curated questions',
    );
    expect(queueCounts({ pending: 0, held: 5, heldFor: { ...none, budget: 5 } }, en)).toBe('0 waiting · 5 held: 5 past the week’s budget');
    expect(queueCounts({ pending: 4, held: 0, heldFor: none }, zhCN)).toBe('4 项待审核 · 0 项暂缓');
    expect(queueCounts({ pending: 4, held: 3, heldFor: { threshold: 2, budget: 1, curated: 0 } }, zhCN)).toBe(
      '4 项待审核 · 3 项暂缓：2 项低于挖掘阈值，1 项超出每周预算',
    );
  });
});
