import { BOUNCE_WINDOW_MS, FOCUSED_DWELL_MS, LARGE_COPY_CHARS, REPEATED_THUMBS_DOWN, REPHRASE_SIMILARITY, REPHRASE_WINDOW_MS } from '../thresholds.ts';

/**
 * Defaults of the widget config, without the validation library, so the widget can fill in a
 * config given as a JS object without shipping the schema. `config.ts` uses the same values.
 */
export const DEFAULT_WIDGET_THRESHOLDS = {
  rephraseSimilarity: REPHRASE_SIMILARITY,
  rephraseWindowMs: REPHRASE_WINDOW_MS,
  bounceWindowMs: BOUNCE_WINDOW_MS,
  focusedDwellMs: FOCUSED_DWELL_MS,
  largeCopyChars: LARGE_COPY_CHARS,
  repeatedThumbsDown: REPEATED_THUMBS_DOWN,
};

/** A prompt's answers unless configured: "yes" and "no" score as a soft vote. */
export const DEFAULT_PROMPT_CHOICES = [
  { id: 'yes', label: { en: 'Yes', 'zh-CN': '是' } },
  { id: 'no', label: { en: 'No', 'zh-CN': '否' } },
];
/** The answer a prompt's dismiss link reports: no configured choice may take its id. */
export const PROMPT_DISMISSED = 'dismissed';
/** Times a prompt may show per browser session. */
export const DEFAULT_PROMPT_MAX_PER_SESSION = 1;
/** Times a prompt may show per day. */
export const DEFAULT_PROMPT_MAX_PER_DAY = 3;
