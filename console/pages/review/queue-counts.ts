import { HELD_REASONS } from '../../../shared/admin-api/review.ts';
import type { ReviewQueue } from '../../api/types.ts';
import { format, type Strings } from '../../i18n/strings.ts';

/**
 * Items waiting and held, the held ones by why the collector holds them: only the reasons that
 * hold any, so a queue holding nothing reads "0 held", not three zeros.
 */
export const queueCounts = ({ pending, held, heldFor }: Pick<ReviewQueue['budget'], 'pending' | 'held' | 'heldFor'>, s: Strings): string => {
  const counts = format(s.queueCounts, { pending, held });
  const reasons = HELD_REASONS.filter((reason) => heldFor[reason] > 0).map((reason) => format(s[`heldFor_${reason}`], { n: heldFor[reason] }));
  return reasons.length ? format(s.queueCountsHeldFor, { counts, reasons: reasons.join(s.listSeparator) }) : counts;
};
