/**
 * The widget's own numbers: timers, caps, sizes and dwell windows, in one place. Thresholds it
 * shares with the collector (which a project's config can override) are in shared/thresholds.ts.
 */

// ---- explicit feedback ----

/** The same action on the same trace again within this window is a double click or submit. */
export const REPEAT_WINDOW_MS = 800;
/** A rating of this many stars or fewer asks what went wrong. */
export const LOW_RATING = 2;
/** Longest citation label in the wrong-source list, in characters (code points). */
export const CITATION_LABEL_CHARS = 120;

// ---- implicit signals ----

/** A citation click this close before the page is hidden opened the source (in another tab or app). */
export const SOURCE_OPENED_WITHIN_MS = 3_000;
/** Shorter previews are scrolling past, not reading. */
export const MIN_PREVIEW_MS = 500;
/** Shorter answer visibility is scrolling past. */
export const MIN_DWELL_MS = 1_000;
/** Share of the answer (or, for an answer taller than the screen, of the screen) that must be visible. */
export const DWELL_VISIBLE_SHARE = 0.5;
/** Traces remembered per session: those seen, so a reload re-rendering the history is not taken for new questions; those voted down. */
export const SEEN_TRACES_KEPT = 200;

// ---- delivery ----

/** Events one session may record per minute: generous for a person, a stop for a runaway loop. */
export const SESSION_EVENTS_PER_MIN = 120;
/** Sessions the client limiter keeps a bucket for. */
export const LIMITED_SESSIONS = 1_000;
/** Answers whose last events the double-click check remembers; beyond it, the one used longest ago is forgotten. */
export const REMEMBERED_SUBJECTS = 500;
/** Most events the outbox keeps while offline; beyond it the oldest go first, and are counted. */
export const OUTBOX_CAP = 20_000;
/** Wait after an event before sending, so events of one interaction travel together. */
export const FLUSH_DELAY_MS = 1_000;
/** First retry after a network error, a 5xx or a 429; it doubles (with jitter) up to the next one. Sentry's. */
export const BACKOFF_BASE_MS = 5_000;
/** Longest wait between retries. */
export const BACKOFF_MAX_MS = 3_600_000;
/** A backoff bound the page sets under this keeps its default: retries so close (0: at once) would hammer a collector that is down. */
export const MIN_BACKOFF_MS = 100;
/** A batch unanswered this long (a hung proxy) is given up and retried, as after a network error. */
export const DELIVERY_TIMEOUT_MS = 30_000;
/** Longest wait a browser timer holds, rounded down: over 2^31-1 ms (24.8 days) it fires at once. */
export const MAX_TIMER_MS = 2e9;
/**
 * Unconfirmed events a page keeps for its page-hide beacon, the newest: those another tab
 * delivered are never confirmed here. A beacon cannot carry more (browsers let a closing page send
 * 64 KB), and the outbox keeps every event for the next visit anyway.
 */
export const UNCONFIRMED_KEPT = 500;
/** Another tab is sending the shared outbox: look again after this long. */
export const OTHER_TAB_RECHECK_MS = 2_000;
/** An IndexedDB open not done by then (blocked, or hung) is not waited for: events wait in memory meanwhile. */
export const OPEN_TIMEOUT_MS = 3_000;
/** Room kept under the collector's body limit for a batch's envelope and the key. */
export const BATCH_ENVELOPE_BYTES = 2_048;

// ---- loading ----

/** Longest wait for an idle moment before deferred work runs anyway. */
export const IDLE_TIMEOUT_MS = 2_000;
