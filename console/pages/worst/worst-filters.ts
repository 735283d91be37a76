import { format, type Strings } from '../../i18n/strings.ts';

/** The filters GET /v1/admin/worst-traces takes, as they appear in the address. */
export const FILTERS = [
  { name: 'days', type: 'number', min: 1, max: 3650, step: 1, placeholder: '7' },
  { name: 'minSignals', type: 'number', min: 1, max: 1000, step: 1, placeholder: '1' },
  // Any score the API takes (-0.33, the badTraceScore setting's): a step would hold Apply back for one in between.
  { name: 'below', type: 'number', min: -1, max: 1, step: 'any' },
  { name: 'knowledgeBase', type: 'text' },
  { name: 'intent', type: 'text' },
  { name: 'model', type: 'text' },
  { name: 'limit', type: 'number', min: 1, max: 1000, step: 1, placeholder: '200' },
] as const;

export type Filter = (typeof FILTERS)[number];

/**
 * Why the collector refused a filter's value, in the console's language: worked out from the
 * filter's own bounds, since the API's message is English.
 */
export function filterIssue(filter: Filter, value: string, s: Strings): string {
  if (filter.type !== 'number') return s.issue_invalid;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) return s.issue_number;
  if (filter.step === 1 && !Number.isInteger(n)) return s.issue_integer;
  if (n < filter.min) return format(s.issue_min_value, { min: filter.min });
  if (n > filter.max) return format(s.issue_max_value, { max: filter.max });
  return s.issue_invalid;
}
