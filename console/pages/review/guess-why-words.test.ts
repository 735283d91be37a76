import { describe, expect, it } from 'vitest';
import type { GuessWhy } from '../../../shared/admin-api/guess-why.ts';
import { en } from '../../i18n/en.ts';
import { zhCN } from '../../i18n/zh-CN.ts';
import { guessWhyWords } from './guess-why-words.ts';

const codes: GuessWhy[] = [
  { code: 'correction_retrieved', share: 0.666, rank: 3 },
  { code: 'correction_not_retrieved', share: 0.1 },
  { code: 'flagged_a_cited_source' },
  { code: 'said_incomplete' },
  { code: 'text', text: 'as it was written' },
];

describe('guessWhyWords', () => {
  it('words each code as the API’s English sentences do', () => {
    expect(codes.map((c) => guessWhyWords(c, en))).toEqual([
      "the chunk closest to the user's correction (67% of its terms) was retrieved at rank 3: the answer was in front of the model",
      "no retrieved chunk holds the user's correction (best overlap 10%)",
      'the user flagged a cited source as wrong',
      'the user said the answer was incomplete: part of what the question asks may not have been retrieved, and what was may still be right',
      'as it was written',
    ]);
  });

  it('words it in Chinese for a Chinese reader, numbers as they are, a sentence with no code as it was written', () => {
    expect(codes.map((c) => guessWhyWords(c, zhCN))).toEqual([
      '与用户纠正最接近的片段（包含其 67% 的词）在第 3 位被检索到：答案就在模型面前',
      '没有检索到的片段包含用户的纠正（最高重合 10%）',
      '用户把一个引用的来源标记为错误',
      '用户说回答不完整：问题所问的一部分可能没有被检索到，而检索到的可能仍然正确',
      'as it was written',
    ]);
  });
});
