import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { zhCN } from '../../i18n/zh-CN.ts';
import { findingWords } from './diagnosis-words.ts';

describe('findingWords', () => {
  const finding = { kind: 'correction_in_chunk', chunkId: 'refund-1', rank: 5, overlap: 0.92, cited: false } as const;

  it('says where the chunk closest to the correction was ranked and whether it was cited', () => {
    expect(findingWords(finding, en, 'en')).toBe(
      'The chunk closest to the user’s correction (refund-1, 92% of its terms) was ranked 5th and was not cited: the answer was in front of the model.',
    );
    expect(findingWords(finding, zhCN, 'zh-CN')).toBe('与用户纠正最接近的片段（refund-1，包含其 92% 的词）排在第 5 位，没有被引用：答案就在模型面前。');
  });

  it('words every kind of finding in both languages, leaving no placeholder unfilled', () => {
    const all = [
      finding,
      { kind: 'correction_partial', chunkId: 'c', rank: 2, overlap: 0.3, cited: true },
      { kind: 'correction_not_retrieved', overlap: 0.1 },
      { kind: 'reranker_demoted', chunkId: 'c', from: 1, to: 12 },
      { kind: 'flagged_source', chunkId: 'c', rank: null },
      { kind: 'rewrite_drift', overlap: 0.2 },
      { kind: 'failed_dimension', dimension: 'relevance' },
      { kind: 'failed_dimension', dimension: 'completeness' },
      { kind: 'failed_dimension', dimension: 'faithfulness' },
      { kind: 'attributed_elsewhere', count: 2 },
      { kind: 'attributed_here', count: 1 },
      { kind: 'low_confidence', count: 3 },
      { kind: 'no_chunks' },
      { kind: 'no_finding' },
    ] as const;
    for (const [locale, s] of [['en', en] as const, ['zh-CN', zhCN] as const]) {
      for (const f of all) expect(findingWords(f, s, locale)).not.toMatch(/\{\w+\}|undefined/);
    }
    expect(findingWords(all[3], en, 'en')).toBe('The reranker moved c down from 1st to 12th.');
  });
});
