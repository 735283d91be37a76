import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { zhCN } from '../../i18n/zh-CN.ts';
import { trainingCount } from './training-count.ts';

describe('trainingCount', () => {
  it('counts towards the minimum while short of it, and says it is reached past it, in every language', () => {
    expect(trainingCount({ examples: 29, minimum: 30 }, en)).toBe('Training examples: 29 of 30');
    expect(trainingCount({ examples: 69, minimum: 30 }, en)).toBe('Training examples: 69 (minimum of 30 reached)');
    expect(trainingCount({ examples: 30, minimum: 30 }, en)).toBe('Training examples: 30 (minimum of 30 reached)');
    expect(trainingCount({ examples: 29, minimum: 30 }, zhCN)).toBe('训练样本：29 / 30');
    expect(trainingCount({ examples: 69, minimum: 30 }, zhCN)).toBe('训练样本：69（已达到最低 30）');
  });
});
