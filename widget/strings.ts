import { at, localeKeys } from './localized.ts';
import { fill } from './typed.ts';

/** The bar's strings and its announcements: the first render needs them. */
export interface VotingStrings {
  feedbackGroup: string;
  thumbsUp: string;
  thumbsDown: string;
  ratingGroup: string;
  /** `{n}` is replaced by the number of stars. */
  stars: string;
  voteUpRecorded: string;
  voteDownRecorded: string;
  voteCleared: string;
}

/** The popover's and the prompts' strings: they come with the background chunk, as the code that shows them does. */
export interface PopoverStrings {
  reasonsTitle: string;
  notAnswered: string;
  incomplete: string;
  looksWrong: string;
  wrongSource: string;
  other: string;
  otherLabel: string;
  sourcesTitle: string;
  flagSource: string;
  sourceFlagged: string;
  suggestCorrection: string;
  correctionLabel: string;
  correctionSourceLabel: string;
  send: string;
  cancel: string;
  close: string;
  thanks: string;
  dismiss: string;
}

/** Every user-facing string; hosts override any of them per locale through `configure`. */
export interface Strings extends VotingStrings, PopoverStrings {}

/** Built-in strings of one part of the UI, under lower-cased keys as `localeKeys` gives them ("zh-TW" → "zh-cn", "fr" → "en"). */
export type BuiltInStrings<T> = { en: T } & Record<string, T>;

/** The bar's built-in strings. */
export const VOTING_STRINGS: BuiltInStrings<VotingStrings> = {
  en: {
    feedbackGroup: 'Was this answer helpful?',
    thumbsUp: 'Helpful',
    thumbsDown: 'Not helpful',
    ratingGroup: 'Rate this answer',
    stars: '{n} of 5 stars',
    voteUpRecorded: 'Marked as helpful',
    voteDownRecorded: 'Marked as not helpful',
    voteCleared: 'Feedback removed',
  },
  'zh-cn': {
    feedbackGroup: '这个回答有帮助吗？',
    thumbsUp: '有帮助',
    thumbsDown: '没有帮助',
    ratingGroup: '为这个回答评分',
    stars: '{n} 星（满分 5 星）',
    voteUpRecorded: '已标记为有帮助',
    voteDownRecorded: '已标记为没有帮助',
    voteCleared: '已撤销反馈',
  },
};

/**
 * The strings of `builtIns` for `locale`: along `localeKeys`, from English to the locale, the
 * built-in ones, each key's overrides over them (an override that is not a string is left out;
 * overrides of another part's strings are that part's).
 */
export function stringsFor<T extends object>(locale: string, overrides: Record<string, Partial<Strings>> | undefined, builtIns: BuiltInStrings<T>): T {
  const { en } = builtIns;
  let base = en;
  return localeKeys(locale).reduceRight((s, key) => {
    const own = at<T>(builtIns, key);
    // Another language's built-ins start over (English overrides are not theirs); the same ones again keep what lies above them.
    if (own && own !== base) s = base = own;
    return fill(at(overrides, key), s);
  }, en);
}
