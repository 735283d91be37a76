import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../shared/admin-api/evidence.ts';
import { en } from '../../i18n/en.ts';
import { zhCN } from '../../i18n/zh-CN.ts';
import { evidenceWords } from './evidence-words.ts';

const codes: Evidence[] = [
  { code: 'flagged_wrong_source', confidence: 0.8512 },
  { code: 'holds_correction_terms', share: 0.666 },
  { code: 'ranked_on_bad_answer', rank: 1, score: -0.6249 },
  { code: 'correction_names_source', document: 'policies/refunds.md' },
  { code: 'read_with_focus', score: 0.5 },
];

describe('evidenceWords', () => {
  it('words each piece of evidence as the API’s English lines do', () => {
    expect(evidenceWords(codes, en)).toEqual([
      'flagged as the wrong source (confidence 0.85)',
      "holds 67% of the terms of the user's correction",
      'ranked 1 on an answer scored -0.62',
      "the user's correction names policies/refunds.md as the source",
      'read with focus on an answer scored 0.50',
    ]);
  });

  it('words it in Chinese for a Chinese reader, numbers and document as they are', () => {
    expect(evidenceWords(codes, zhCN)).toEqual([
      '被标记为错误的来源（置信度 0.85）',
      '包含用户更正中 67% 的词',
      '在得分 -0.62 的回答中排第 1',
      '用户的更正指明来源是 policies/refunds.md',
      '在得分 0.50 的回答中被专注阅读',
    ]);
  });
});
