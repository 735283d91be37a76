import { type GuessWhy, guessWhyText } from '../../../shared/admin-api/guess-why.ts';
import type { Strings } from '../../i18n/strings.ts';

/** Why the collector guesses what failed, in the reader's language, from its code and numbers, not the API's English sentence. */
export const guessWhyWords = (code: GuessWhy, s: Strings): string => guessWhyText(code, s[`guessWhy_${code.code}`]);
