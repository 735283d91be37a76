import { at, localeKeys } from './localized.ts';
import { fill } from './typed.ts';

/** Every user-facing string; hosts override any of them per locale through `configure`. */
export interface Strings {
  feedbackGroup: string;
  thumbsUp: string;
  thumbsDown: string;
  ratingGroup: string;
  /** `{n}` is replaced by the number of stars. */
  stars: string;
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
  voteUpRecorded: string;
  voteDownRecorded: string;
  voteCleared: string;
  dismiss: string;
}

const en: Strings = {
  feedbackGroup: 'Was this answer helpful?',
  thumbsUp: 'Helpful',
  thumbsDown: 'Not helpful',
  ratingGroup: 'Rate this answer',
  stars: '{n} of 5 stars',
  reasonsTitle: 'What went wrong?',
  notAnswered: "Didn't answer my question",
  incomplete: 'Incomplete',
  looksWrong: 'Looks wrong',
  wrongSource: 'Wrong source',
  other: 'Something else',
  otherLabel: 'Tell us more',
  sourcesTitle: 'Which source is wrong?',
  flagSource: 'Flag as wrong source',
  sourceFlagged: 'Flagged',
  suggestCorrection: 'Suggest a correction',
  correctionLabel: 'What should the answer say?',
  correctionSourceLabel: 'Where can we find it? (optional)',
  send: 'Send',
  cancel: 'Cancel',
  close: 'Close',
  thanks: 'Thank you for your feedback.',
  voteUpRecorded: 'Marked as helpful',
  voteDownRecorded: 'Marked as not helpful',
  voteCleared: 'Feedback removed',
  dismiss: 'Dismiss',
};

const zhCN: Strings = {
  feedbackGroup: '这个回答有帮助吗？',
  thumbsUp: '有帮助',
  thumbsDown: '没有帮助',
  ratingGroup: '为这个回答评分',
  stars: '{n} 星（满分 5 星）',
  reasonsTitle: '哪里有问题？',
  notAnswered: '没有解答我的问题',
  incomplete: '信息不完整',
  looksWrong: '看起来内容不对',
  wrongSource: '引用来源有问题',
  other: '其他原因',
  otherLabel: '请补充说明',
  sourcesTitle: '哪个引用来源有问题？',
  flagSource: '标记为错误来源',
  sourceFlagged: '已标记',
  suggestCorrection: '提交纠正',
  correctionLabel: '正确的回答应该是什么？',
  correctionSourceLabel: '出处（选填）',
  send: '提交',
  cancel: '取消',
  close: '关闭',
  thanks: '感谢反馈。',
  voteUpRecorded: '已标记为有帮助',
  voteDownRecorded: '已标记为没有帮助',
  voteCleared: '已撤销反馈',
  dismiss: '忽略',
};

/** Built-in locales, under lower-cased keys as `localeKeys` gives them ("zh-TW" → "zh-cn", "fr" → "en"). */
export const BUILT_IN_STRINGS: Record<string, Strings> = { en, 'zh-cn': zhCN };

/**
 * The strings for `locale`: along `localeKeys`, from English to the locale, the built-in ones,
 * each key's overrides over them (an override that is not a string is left out).
 */
export function stringsFor(locale: string, overrides?: Record<string, Partial<Strings>>): Strings {
  let base = en;
  return localeKeys(locale).reduceRight((s, key) => {
    const own = at<Strings>(BUILT_IN_STRINGS, key);
    // Another language's built-ins start over (English overrides are not theirs); the same ones again keep what lies above them.
    if (own && own !== base) s = base = own;
    return fill(at(overrides, key), s);
  }, en);
}
