import type * as v from 'valibot';

/** A validation failure named by its field path, e.g. `events[3].detail.stars`. */
export interface FieldError {
  field: string;
  message: string;
}

/** Turns valibot's first issue into a field path and a message a developer can act on. */
export function firstFieldError(issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError {
  const issue = issues[0]!;
  let field = prefix;
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    field += typeof key === 'number' ? `[${key}]` : field ? `.${String(key)}` : String(key);
  }
  return { field: field || prefix || 'body', message: messageOf(issue) };
}

/** valibot's words for an object's keys ("Invalid key: Expected never but received…") said plainly: the path names the key. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.kind !== 'schema' || !issue.type.endsWith('object')) return issue.message;
  if (issue.expected === 'never') return 'is not a field this takes';
  if (issue.received === 'undefined') return 'is required';
  return issue.message;
}
