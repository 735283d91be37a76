import * as v from 'valibot';
import { durationMs, id, label } from './common.ts';
import {
  DEFAULT_WIDGET_THRESHOLDS as D,
  DEFAULT_PROMPT_CHOICES,
  DEFAULT_PROMPT_MAX_PER_DAY,
  DEFAULT_PROMPT_MAX_PER_SESSION,
  PROMPT_DISMISSED,
} from './config-defaults.ts';

/** What can make a contextual prompt appear. */
export const PROMPT_TRIGGERS = ['rephrase', 'large_copy', 'citation_dwell', 'repeated_thumbs_down'] as const;

const count = (max: number) => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(max));
/** A user-facing string: one text, or one per locale ("en", "zh-CN", ...); an empty one would show nothing. */
const shown = v.pipe(label(300), v.minLength(1, 'must not be empty'));
/** A language tag as BCP 47 writes one: a language, then subtags ("en", "zh-CN", "sr-Latn-RS"). */
const LOCALE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
/** Keys an object parsed from JSON may hold but a record passes over: refused rather than dropped unseen. */
const NOT_LOCALES = ['__proto__', 'prototype', 'constructor'];
const perLocale = v.pipe(
  v.custom<Record<string, string>>(
    (x) => typeof x === 'object' && x !== null && !Array.isArray(x) && !NOT_LOCALES.some((k) => Object.hasOwn(x, k)),
    'has a key that is not a locale',
  ),
  v.record(v.pipe(v.string(), v.maxLength(16), v.regex(LOCALE_TAG, 'must be a language tag, e.g. en or zh-CN')), shown),
  v.minEntries(1, 'needs a text for at least one locale'),
);
const localized = v.union([shown, perLocale]);

export const PromptSchema = v.strictObject({
  /** Stable id, reported with prompt_shown / prompt_answered events. */
  id: id(64),
  /** The behaviour that shows it. */
  trigger: v.picklist(PROMPT_TRIGGERS),
  /** The question shown, e.g. "Having trouble finding an answer?". */
  text: localized,
  /** The answers offered; "yes" and "no" score as a soft vote. */
  choices: v.optional(
    v.pipe(
      v.array(v.strictObject({ id: v.pipe(id(64), v.notValue(PROMPT_DISMISSED, `is what the dismiss link reports: ${PROMPT_DISMISSED}`)), label: localized })),
      v.minLength(1),
      v.maxLength(5),
      // An answer is reported by its choice's id (`prompt_answered`): two choices with one id could not be told apart.
      v.checkItems((c, i, all) => all.findIndex((d) => d.id === c.id) === i, 'has the id of an earlier choice'),
    ),
    DEFAULT_PROMPT_CHOICES,
  ),
  /** Most times per browser session, so prompts never nag. */
  maxPerSession: v.optional(count(100), DEFAULT_PROMPT_MAX_PER_SESSION),
  /** Most times per day across sessions. */
  maxPerDay: v.optional(count(1000), DEFAULT_PROMPT_MAX_PER_DAY),
});

/**
 * Per-project widget behaviour, served by GET /v1/config and set by PUT /v1/config. The PUT
 * replaces the whole config, so its objects are strict: a misspelt key is refused, not dropped
 * (which would reset the value meant to its default).
 */
export const WidgetConfigSchema = v.strictObject({
  /** Contextual prompts product teams configure. */
  prompts: v.optional(
    v.pipe(
      v.array(PromptSchema),
      v.maxLength(20),
      // Caps and events are per prompt id: two prompts with one id would share them.
      v.checkItems((p, i, all) => all.findIndex((q) => q.id === p.id) === i, 'has the id of an earlier prompt'),
    ),
    [],
  ),
  /** Show a 1-5 rating instead of thumbs. */
  rating: v.optional(v.boolean(), false),
  /** Thresholds the widget's implicit signals use. */
  thresholds: v.optional(
    v.strictObject({
      /** Lexical similarity at or above which a follow-up is a rephrase. */
      rephraseSimilarity: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), D.rephraseSimilarity),
      /** How soon a follow-up must come to be a rephrase. */
      rephraseWindowMs: v.optional(durationMs(), D.rephraseWindowMs),
      /** Hiding the page within this time with no interaction is a bounce. */
      bounceWindowMs: v.optional(durationMs(), D.bounceWindowMs),
      /** Citation dwell that shows the citation_dwell prompt (the signal's value uses FOCUSED_DWELL_MS). */
      focusedDwellMs: v.optional(durationMs(), D.focusedDwellMs),
      /** Characters that make a copy "large". */
      largeCopyChars: v.optional(count(1_000_000), D.largeCopyChars),
      /** Thumbs-down count in one session that triggers "repeated_thumbs_down". */
      repeatedThumbsDown: v.optional(count(100), D.repeatedThumbsDown),
    }),
    {},
  ),
});

export type Prompt = v.InferOutput<typeof PromptSchema>;
export type WidgetConfig = v.InferOutput<typeof WidgetConfigSchema>;
export type WidgetConfigInput = v.InferInput<typeof WidgetConfigSchema>;

/** The config a project has before anyone sets one. */
export const defaultWidgetConfig = (): WidgetConfig => v.parse(WidgetConfigSchema, {});
