import type * as v from 'valibot';
import { format, type StringKey, type Strings } from '../../i18n/strings.ts';
import { issueText } from '../../ui/issue-text.ts';

const PROMPT_FIELDS: Record<string, StringKey> = {
  id: 'promptId',
  trigger: 'trigger',
  text: 'promptTextEn',
  maxPerSession: 'maxPerSession',
  maxPerDay: 'maxPerDay',
};

/** The form's label for an issue's path: "Prompt 2 · Id", "Rephrase window (ms)"; the path itself for what the form does not show. */
function fieldLabel(path: readonly unknown[], s: Strings): string {
  const [top, second, third, fourth] = path;
  if (top === 'thresholds' && typeof second === 'string') return s[`threshold_${second}` as StringKey] ?? second;
  if (top === 'rating') return s.ratingMode;
  if (top === 'prompts' && typeof second === 'number') {
    const prompt = format(s.promptN, { n: second + 1 });
    const field =
      third === 'text' && fourth === 'zh-CN' ? s.promptTextZh : typeof third === 'string' && PROMPT_FIELDS[third] ? s[PROMPT_FIELDS[third]] : undefined;
    return field ? `${prompt} · ${field}` : prompt;
  }
  if (top === 'prompts') return s.promptsList;
  return path.map(String).join('.') || 'config';
}

/**
 * The first thing the shared schema refused in the prompt settings, named as the form names it, in
 * the console's language; `path` is where it is (`prompts.1.maxPerSession`), for the form to mark the field.
 */
export function configIssue(issues: readonly v.BaseIssue<unknown>[], s: Strings): { field: string; message: string; path: string } {
  const issue = issues[0]!;
  const path = (issue.path ?? []).map((item) => (item as { key?: unknown }).key);
  return { field: fieldLabel(path, s), message: issueText(issue, s), path: path.map(String).join('.') };
}
