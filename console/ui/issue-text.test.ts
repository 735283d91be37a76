import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { WidgetConfigSchema } from '../../shared/schema/config.ts';
import { LoopSettingsSchema } from '../../shared/schema/settings.ts';
import { en } from '../i18n/en.ts';
import { zhCN as zh } from '../i18n/zh-CN.ts';
import { configIssue } from '../pages/prompts/config-issue.ts';
import { issueText } from './issue-text.ts';

const firstIssue = (schema: v.GenericSchema, input: unknown) => {
  const parsed = v.safeParse(schema, input);
  expect(parsed.success).toBe(false);
  return parsed.issues![0]!;
};

describe('schema issues in the console’s language', () => {
  it('words each kind of settings issue in English and Chinese, leaving the schema’s own message as it is', () => {
    const cases: [unknown, string, string][] = [
      [{ secondsPerReviewItem: 0 }, 'must be at least 1', '不能小于 1'],
      [{ gateMinGain: 2 }, 'must be at most 1', '不能大于 1'],
      [{ retentionDays: 1.5 }, 'must be a whole number', '必须是整数'],
      [{ reviewMinutesPerWeek: Number.NaN }, 'must be a number', '必须是数字'],
      [{ badTraceScore: 0.2, goodTraceScore: 0.1 }, 'must be at least the bad-answer score', '不能低于差回答的得分'],
      [{ retentionDays: 800 }, 'must be at least the raw data’s retention', '不能短于原始数据的保留天数'],
      [{ retrainEveryDays: 1.5 }, 'must be a whole number', '必须是整数'],
    ];
    for (const [input, english, chinese] of cases) {
      const issue = firstIssue(LoopSettingsSchema, input);
      expect(issueText(issue, en)).toBe(english);
      expect(issueText(issue, zh)).toBe(chinese);
      // The API's message is the schema's, in English.
      expect(issue.message).toMatch(/^Invalid /);
    }
  });

  it('names the prompt settings field as the form does', () => {
    const prompt = { id: 'ok', trigger: 'rephrase', text: { en: 'Stuck?' } };
    const empty = firstIssue(WidgetConfigSchema, { prompts: [prompt, { ...prompt, id: '' }] });
    expect(configIssue([empty], en)).toEqual({ field: 'Prompt 2 · Id', message: 'must not be empty', path: 'prompts.1.id' });
    expect(configIssue([empty], zh)).toMatchObject({ field: '提示 2 · ID', message: '不能为空' });
    expect(empty.message).toBe('must not be empty');

    const badId = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, id: 'has space' }] });
    expect(configIssue([badId], zh)).toMatchObject({ field: '提示 1 · ID', message: '只能包含字母、数字和 . : @ / # _ -' });

    const cap = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, maxPerDay: 5000 }] });
    expect(configIssue([cap], zh)).toEqual({ field: '提示 1 · 每天最多', message: '不能大于 1000', path: 'prompts.0.maxPerDay' });

    const repeated = firstIssue(WidgetConfigSchema, { prompts: [prompt, { ...prompt, text: 'Again?' }] });
    expect(configIssue([repeated], en)).toMatchObject({ field: 'Prompt 2', message: 'has the id of an earlier prompt' });
    expect(configIssue([repeated], zh).message).toBe('与前面某个提示的 id 相同');

    const yes = { id: 'yes', label: 'Yes' };
    const twoChoices = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, choices: [yes, { ...yes, label: 'No' }] }] });
    expect(configIssue([twoChoices], en)).toMatchObject({ field: 'Prompt 1', message: 'has the id of an earlier choice' });
    expect(configIssue([twoChoices], zh).message).toBe('与前面某个选项的 id 相同');
    const dismissed = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, choices: [yes, { id: 'dismissed', label: 'Later' }] }] });
    expect(configIssue([dismissed], en)).toMatchObject({ field: 'Prompt 1', message: 'has the id the dismiss link answers with (dismissed)' });

    const blank = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, text: { en: '' } }] });
    expect(configIssue([blank], en).field).toBe('Prompt 1 · Text (English)');
    const none = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, text: {} }] });
    expect(configIssue([none], en)).toEqual({ field: 'Prompt 1 · Text (English)', message: 'must not be empty', path: 'prompts.0.text' });

    const window = firstIssue(WidgetConfigSchema, { thresholds: { rephraseWindowMs: -1 } });
    expect(configIssue([window], en)).toEqual({ field: 'Rephrase window (ms)', message: 'must be at least 0', path: 'thresholds.rephraseWindowMs' });
    expect(configIssue([window], zh).message).toBe('不能小于 0');

    const tooLong = firstIssue(WidgetConfigSchema, { prompts: [{ ...prompt, text: { 'zh-CN': 'x'.repeat(301) } }] });
    expect(configIssue([tooLong], zh)).toEqual({ field: '提示 1 · 文字（简体中文）', message: '最多 300 个字符', path: 'prompts.0.text.zh-CN' });
  });
});
