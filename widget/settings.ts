import type { Prompt, WidgetConfig, WidgetConfigInput } from '../shared/schema/config.ts';
import {
  DEFAULT_PROMPT_CHOICES,
  DEFAULT_PROMPT_MAX_PER_DAY,
  DEFAULT_PROMPT_MAX_PER_SESSION,
  DEFAULT_WIDGET_THRESHOLDS,
} from '../shared/schema/config-defaults.ts';
import { joinUrl } from '../shared/url.ts';
import { DELIVERY_TIMEOUT_MS } from './defaults.ts';
import { isEndpoint } from './endpoint.ts';
import { setDebug, warn } from './guard.ts';
import { localized } from './localized.ts';
import type { TransportInput } from './pipeline/transport-options.ts';
import type { Strings } from './strings.ts';
import { timeoutSignal } from './timeout.ts';
import { fill, typed } from './typed.ts';

/** Page-wide options, set once with `RagFeedback.configure()`; attributes override per element. */
export interface RagFeedbackOptions {
  /** The collector's base URL, e.g. `https://feedback.example.com`. */
  endpoint?: string;
  /** The project's public write key (`rfw_…`). */
  writeKey?: string;
  /** The chat session; without it the widget keeps one per browser tab. */
  sessionId?: string;
  /** UI language, e.g. "en" or "zh-CN" (default: the page's `lang`, else the browser's). */
  locale?: string;
  /** Overrides of any UI string, per locale or language: `{ en: { thumbsUp: 'Yes!' } }`. */
  strings?: Record<string, Partial<Strings>>;
  /** Widget behaviour (prompts, rating mode, thresholds); merged over the project's server config. */
  config?: WidgetConfigInput;
  /** Fetch the project's config from `GET /v1/config` (default true). */
  loadConfig?: boolean;
  /** CSP nonce for the styles Lit injects where constructable stylesheets are unavailable. */
  nonce?: string;
  /** Log warnings to the console (default false: the widget is silent on the host page). */
  debug?: boolean;
  /** Name of the IndexedDB outbox (default "rag-feedback"), read once, when the outbox opens: set it as the page loads. */
  outboxName?: string;
  /** Most events the outbox keeps while offline (default 20,000; the oldest are dropped, and counted), read at each write; anything but a positive number keeps the default. */
  outboxCap?: number;
  /** Delivery timing; what it leaves out, also within `backoff`, keeps its default. Its `timeoutMs` bounds the request for the project's config too. */
  transport?: TransportInput;
}

export const options: RagFeedbackOptions = {};

/**
 * Elements on the page, told when options change: answers rendered before `configure` (the
 * history in the page's HTML, upgraded as the script runs) take the new config, strings and locale.
 */
export const onConfigure = new Set<() => void>();

export function configure(next: RagFeedbackOptions): void {
  Object.assign(options, next);
  // Plain JavaScript may pass nothing at all: the page must not get an error for it.
  if (next?.debug !== undefined) setDebug(next.debug);
  if (next?.nonce) (globalThis as { litNonce?: string }).litNonce = next.nonce;
  for (const fn of onConfigure) fn();
}

/** A text to show: one string, or one per locale, with a string to show for some locale. */
const isText = (text: unknown) => !!localized(text, '');

/** What a prompt needs to be shown and reported: a string id, and a text. */
const isPrompt = (p: Partial<Prompt> | null): p is Prompt => typeof p?.id === 'string' && isText(p.text);

const DEFAULT_CONFIG: WidgetConfig = { prompts: [], rating: false, thresholds: DEFAULT_WIDGET_THRESHOLDS };

/**
 * Fills a config given as a plain object with the same defaults the collector applies, over
 * `base`. The server's config or the page's may be malformed: a value of the wrong type (or a
 * number that is not finite, or negative) stays at its default, and a prompt without a string id
 * or a text is left out.
 */
export function normalizeConfig(input?: WidgetConfigInput, base = DEFAULT_CONFIG): WidgetConfig {
  const prompts: Partial<Prompt>[] = Array.isArray(input?.prompts) ? input.prompts : base.prompts;
  return {
    prompts: prompts.filter(isPrompt).map((p) => ({
      ...p,
      choices: Array.isArray(p.choices) && p.choices.every((c) => typeof c?.id === 'string' && isText(c.label)) ? p.choices : DEFAULT_PROMPT_CHOICES,
      maxPerSession: typed(p.maxPerSession, DEFAULT_PROMPT_MAX_PER_SESSION),
      maxPerDay: typed(p.maxPerDay, DEFAULT_PROMPT_MAX_PER_DAY),
    })),
    rating: typed(input?.rating, base.rating),
    thresholds: fill(input?.thresholds, base.thresholds),
  };
}

/** The project's config per endpoint and key, fetched once it could be: undefined where it was not an object. */
const remote: Record<string, Promise<WidgetConfig | undefined>> = {};

/** Every answer asks for its config again: those whose load failed for a while fetch it anew. */
const reload = () => configure({});

/** The project's config: fetched once per endpoint and key, then the page's own config on top. */
export function loadConfig(endpoint: string, writeKey: string): Promise<WidgetConfig> {
  const local = options.config;
  if (options.loadConfig === false || !isEndpoint(endpoint) || !writeKey) return Promise.resolve(normalizeConfig(local));
  const where = `${endpoint}|${writeKey}`;
  // Unanswered, given up as a batch of events is (`transport.timeoutMs`, 0 for none), and asked for again as after any failure that may pass.
  const timeoutMs = typed(options.transport?.timeoutMs, DELIVERY_TIMEOUT_MS);
  // `null` is JSON too: only an object is a config.
  return (remote[where] ??= fetch(joinUrl(endpoint, 'v1/config'), {
    headers: { authorization: `Bearer ${writeKey}` },
    credentials: 'omit',
    signal: timeoutSignal(timeoutMs),
  })
    .then((res) => (res.ok ? (res.json() as Promise<WidgetConfig>) : Promise.reject(res.status)))
    .catch((err) => {
      // Offline, unanswered, a 5xx, a 429 or a body that is not JSON may pass: asked for again by the next answer, and by every answer
      // once the connection is back (one listener, however many fail). Another 4xx (a bad key) would not: kept, with the defaults.
      if (typeof err !== 'number' || err >= 500 || err === 429) {
        delete remote[where];
        addEventListener('online', reload, { once: true });
      }
      warn('config not loaded; using defaults', err);
      return undefined;
    })).then((server) => normalizeConfig(local, server instanceof Object ? normalizeConfig(server) : undefined));
}
