import type { Finding } from '../../api/types.ts';
import { ordinal, percent } from '../../i18n/locale.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';

/** A finding of the trace view's diagnosis, in the reader's language. */
export function findingWords(f: Finding, s: Strings, locale: Locale): string {
  const rank = (n: number | null) => (n === null ? s.notSet : ordinal(n, locale));
  switch (f.kind) {
    case 'correction_in_chunk':
    case 'correction_partial':
      return format(s[`finding_${f.kind}`], { chunk: f.chunkId, overlap: percent(f.overlap), rank: rank(f.rank), cited: f.cited ? s.wasCited : s.wasNotCited });
    case 'correction_not_retrieved':
    case 'rewrite_drift':
      return format(s[`finding_${f.kind}`], { overlap: percent(f.overlap) });
    case 'reranker_demoted':
      return format(s.finding_reranker_demoted, { chunk: f.chunkId, from: rank(f.from), to: f.to === null ? s.dropped : rank(f.to) });
    case 'flagged_source':
      return format(s.finding_flagged_source, { chunk: f.chunkId, rank: rank(f.rank) });
    case 'failed_dimension':
      return s[`finding_dimension_${f.dimension}`];
    case 'attributed_elsewhere':
    case 'attributed_here':
    case 'low_confidence':
      return format(s[`finding_${f.kind}`], { count: f.count });
    default:
      return s[`finding_${f.kind}`];
  }
}
