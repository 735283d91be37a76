import type { Strings } from '../i18n/strings.ts';

/** A message worded when it is shown, not when it happened: it follows a change of language like the rest of the page. */
export type Words = (s: Strings) => string;
