import type { ReviewQueue } from '../../api/types.ts';
import { format, type Strings } from '../../i18n/strings.ts';

/**
 * The training examples held against the minimum a model needs: "N of minimum" only while short
 * of it, so a count past the minimum does not read like a progress bar gone past 100%.
 */
export const trainingCount = ({ examples, minimum }: Pick<ReviewQueue['training'], 'examples' | 'minimum'>, s: Strings): string =>
  format(examples < minimum ? s.trainingProgress : s.trainingEnough, { examples, minimum });
