import { FOCUSED_DWELL_MS } from '../../../shared/thresholds.ts';

/**
 * Whether the citation dwell `e` was focused reading (`isFocusedDwell` in SQL): a glance is
 * neither engagement nor evidence that the source answers.
 */
export const focusedDwellSql = (e = 'e') => `json_extract(${e}.detail, '$.ms') >= ${FOCUSED_DWELL_MS}`;
