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
  return { field: field || prefix || 'body', message: issue.message };
}
