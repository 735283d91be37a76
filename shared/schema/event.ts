import * as v from 'valibot';
import type { SignalType } from '../signals.ts';
import { MAX_EVENTS_PER_BATCH } from '../thresholds.ts';
import { charCount, durationMs, epochMs, externalId, finite, freeText, id, label } from './common.ts';
import { ATTRIBUTION_REASONS } from './reasons.ts';
import { TYPED_TEXT } from './typed-text.ts';

/**
 * The largest web vitals taken, past what a page can measure, so the widget sends them as web-vitals
 * reports them: an hour to paint or to answer an interaction (INP, LCP); a CLS of 1,000, since a
 * layout shift scores at most 1 a frame and a session window of shifts lasts at most 5 s (even a
 * 144 Hz screen stays under 720).
 */
const MAX_VITAL_MS = 3_600_000;
const MAX_LAYOUT_SHIFT = 1_000;

const noDetail = v.optional(v.strictObject({}), {});

/** The typed detail each signal type carries. The key is the signal type. */
const details = {
  thumbs_up: noDetail,
  thumbs_down: noDetail,
  vote_cleared: noDetail,
  rating: v.strictObject({
    /** 1 (bad) to 5 (good). */
    stars: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5)),
  }),
  attribution: v.strictObject({
    /** The reason chosen in the popover. */
    reason: v.picklist(ATTRIBUTION_REASONS),
    /** Free text for "something else" (redacted). */
    text: v.optional(freeText(TYPED_TEXT.attribution.text)),
  }),
  correction: v.strictObject({
    /** What the answer should have said (redacted). */
    text: v.pipe(freeText(TYPED_TEXT.correction.text), v.trim(), v.minLength(1, 'must not be empty')),
    /** Where the right answer can be found: a URL or a document name (redacted). */
    source: v.optional(freeText(TYPED_TEXT.correction.source)),
  }),
  wrong_source: v.strictObject({
    /** The flagged citation's chunk id. */
    chunkId: externalId(),
  }),
  support_ticket: v.strictObject({
    /** The helpdesk's id of the ticket, so the ticket is found from the answer. */
    ticketId: externalId(),
  }),
  citation_click: v.strictObject({
    /** The clicked citation's chunk id. */
    chunkId: externalId(),
  }),
  citation_dwell: v.strictObject({
    /** The citation's chunk id. */
    chunkId: externalId(),
    /** Time on the source: away on the opened page, or the preview visible. */
    ms: durationMs(),
    /** Whether the user left the page for the source or read an in-page preview. */
    mode: v.picklist(['away', 'preview']),
  }),
  copy_answer: v.strictObject({
    /** How many characters were copied. */
    chars: charCount(),
  }),
  copy_source: v.strictObject({
    /** The copied citation's chunk id, when the copy came from a citation element. */
    chunkId: v.optional(externalId()),
    /** How many characters were copied. */
    chars: charCount(),
  }),
  answer_dwell: v.strictObject({
    /** Total time the answer was visible. */
    ms: durationMs(),
  }),
  rephrase_within_session: v.strictObject({
    /** The trace of the paraphrased follow-up query. */
    nextTraceId: externalId(),
    /** Lexical similarity of the two queries, 0-1. */
    similarity: v.pipe(finite(), v.minValue(0), v.maxValue(1)),
    /** Time between the two queries. */
    gapMs: durationMs(),
  }),
  contradicted_by_follow_up: v.strictObject({
    /** The trace of the follow-up that pushed back. */
    nextTraceId: externalId(),
    /** Time between the answer and the follow-up. */
    gapMs: durationMs(),
  }),
  regenerate: v.strictObject({
    /** Time from the answer to the regenerate. */
    gapMs: durationMs(),
  }),
  bounce: v.strictObject({
    /** Time from the answer to the page being hidden. */
    ms: durationMs(),
  }),
  prompt_shown: v.strictObject({
    /** The configured prompt's id. */
    promptId: id(64),
    /** What triggered it. */
    trigger: label(64),
  }),
  prompt_answered: v.strictObject({
    /** The configured prompt's id. */
    promptId: id(64),
    /** The chosen answer's id ("yes", "no", or a configured choice). */
    answer: id(64),
    /** Optional free text (redacted). */
    text: v.optional(freeText(TYPED_TEXT.prompt_answered.text)),
  }),
  web_vitals: v.pipe(
    v.strictObject({
      /** Which vital: the three Core Web Vitals, the ones the widget reports. */
      name: v.picklist(['INP', 'LCP', 'CLS']),
      /** Its value: ms (not a whole number: web-vitals reports fractions), or unitless for CLS. */
      value: v.pipe(finite(), v.minValue(0), v.maxValue(MAX_VITAL_MS)),
      /** web-vitals' own verdict. */
      rating: v.picklist(['good', 'needs-improvement', 'poor']),
    }),
    v.forward(
      v.check((d) => d.name !== 'CLS' || d.value <= MAX_LAYOUT_SHIFT, `must be at most ${MAX_LAYOUT_SHIFT} for CLS`),
      ['value'],
    ),
  ),
} as const satisfies Record<SignalType, v.GenericSchema>;

/**
 * The ids of events the collector makes itself (a follow-up's pushback) start with this, and are made
 * from the turn; a client may not send one, or it could take such an id first and the event be lost.
 */
export const COLLECTOR_EVENT_ID_PREFIX = 'pushback-';

/** Fields every feedback event carries, whatever its signal. */
const envelope = {
  /** Unique, time-ordered id made when the event is created: retries are deduplicated by it. */
  eventId: v.pipe(
    id(64),
    v.check((s: string) => !s.startsWith(COLLECTOR_EVENT_ID_PREFIX), `must not start with "${COLLECTOR_EVENT_ID_PREFIX}": the collector makes those`),
  ),
  /** The trace this feedback is about. */
  traceId: externalId(),
  /** The chat session, for vote flips, rate limits and rephrase detection. */
  sessionId: externalId(),
  /** When the event happened, epoch ms (the browser's clock). */
  clientTs: epochMs(),
  /** The widget version that sent it, to tell a bug in one release from a real signal. */
  widgetVersion: v.optional(label(32)),
  /** Time from the answer being shown to this event, measured in the browser: a vote faster than reading is noise. */
  shownMs: v.optional(durationMs()),
};

type Details = typeof details;

function eventVariant<K extends keyof Details>(signalType: K) {
  return v.strictObject({
    ...envelope,
    /** What kind of signal this is; selects the detail's shape. */
    signalType: v.literal(signalType),
    /** Typed detail for this signal type. */
    detail: details[signalType],
  });
}

export type FeedbackEvent = {
  [K in keyof Details]: Omit<v.InferOutput<ReturnType<typeof eventVariant<K>>>, 'detail'> & {
    detail: v.InferOutput<Details[K]>;
  };
}[keyof Details];
export type FeedbackEventInput = {
  [K in keyof Details]: Omit<v.InferInput<ReturnType<typeof eventVariant<K>>>, 'detail'> & {
    detail?: v.InferInput<Details[K]>;
  };
}[keyof Details];

/**
 * One feedback event on the wire. Built from the detail table above; the cast restores the
 * per-signal pairing of type and detail that a mapped array loses.
 */
export const FeedbackEventSchema = v.variant('signalType', (Object.keys(details) as (keyof Details)[]).map(eventVariant)) as unknown as v.GenericSchema<
  FeedbackEventInput,
  FeedbackEvent
>;

export type EventDetail<K extends keyof Details> = v.InferOutput<Details[K]>;

/** POST /v1/events: a batch, with the write key in the body when sent by navigator.sendBeacon. */
export const EventBatchSchema = v.pipe(
  v.unknown(),
  // An array would pass as an object and be blamed on a missing `events`; name the real mistake.
  v.check((body) => !Array.isArray(body), 'The body must be an object: { "events": [...] }'),
  v.strictObject({
    /** The project's public write key (beacons cannot set headers). */
    writeKey: v.optional(v.string()),
    /** The events, validated one by one so a bad one does not sink the rest. */
    events: v.pipe(
      v.array(v.unknown()),
      v.minLength(1, 'The batch has no events'),
      v.maxLength(MAX_EVENTS_PER_BATCH, `At most ${MAX_EVENTS_PER_BATCH} events per batch`),
    ),
    /** Events the widget's full outbox dropped since its last report: lost feedback, for loop health. */
    dropped: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(1_000_000_000))),
  }),
);
