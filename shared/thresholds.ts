/**
 * Thresholds and wire limits shared by the widget, the collector and the nightly loop.
 * Exported data, not numbers buried in code: change one here and every consumer follows.
 */

/** A chunk ranked this high by its answer's last stage (reranked when there is one) counts as shown first. */
export const TOP_RANKS = 3;
/** A regenerate this soon after the answer is a firm rejection (seed: 30 s). */
export const REGENERATE_WINDOW_MS = 30_000;
/** A follow-up query within this window may be a rephrase (seed: 120 s). */
export const REPHRASE_WINDOW_MS = 120_000;
/** Lexical similarity at or above which two queries count as the same question. */
export const REPHRASE_SIMILARITY = 0.5;
/** A follow-up saying the answer before it was wrong counts against it within this time (a turn of the same conversation). */
export const CONTRADICTION_WINDOW_MS = 600_000;
/** Citation dwell at or above this counts as focused reading (seed 002, 4.1: 15 s). */
export const FOCUSED_DWELL_MS = 15_000;
/** Hiding the page this soon after the answer, with no interaction, is a bounce. */
export const BOUNCE_WINDOW_MS = 10_000;
/** A copy of at least this many characters is "large" (a contextual-prompt trigger). */
export const LARGE_COPY_CHARS = 200;
/** Thumbs-down count within one session that triggers the "having trouble?" prompt. */
export const REPEATED_THUMBS_DOWN = 2;

/**
 * The longest origin a project may allow: a scheme, a host name's 253 characters and a port, with
 * room to spare. A request's Origin header longer than this is no project's, and is not looked up.
 */
export const MAX_ORIGIN_CHARS = 512;

/** The longest question a trace keeps (the demo asks no longer ones). */
export const MAX_QUERY_CHARS = 8_000;

/**
 * The longest question key (its sorted terms). The nightly job binds a slice's keys (2,000
 * traces) as one JSON value and D1 takes at most 2 MB in one, so a pasted page cannot stop the
 * night; a longer key keeps its start and a hash of the rest.
 */
export const MAX_QUERY_KEY_CHARS = 500;
/** The longest prompt a trace keeps. */
export const MAX_PROMPT_CHARS = 100_000;
/** The longest answer a trace keeps. */
export const MAX_ANSWER_CHARS = 50_000;
/** The longest name of a knowledge base a trace takes. */
export const KNOWLEDGE_BASE_CHARS = 100;
/** The longest chunk text a trace keeps: retraining reads no more of a chunk, and so the reranker reads no more either. */
export const MAX_CHUNK_TEXT = 20_000;

/** Most events in one POST /v1/events batch. */
export const MAX_EVENTS_PER_BATCH = 100;
/** Largest /v1/events body: what navigator.sendBeacon reliably accepts. */
export const MAX_EVENTS_BODY_BYTES = 64 * 1024;
/** Most traces in one POST /v1/traces batch. */
export const MAX_TRACES_PER_BATCH = 50;
/** Largest /v1/traces body. */
export const MAX_TRACES_BODY_BYTES = 2 * 1024 * 1024;
/** Largest PUT /v1/config body. */
export const MAX_CONFIG_BODY_BYTES = 32 * 1024;

/** A reranker artifact posted by `npm run retrain`: its size grows with confirmed judgements (tens of KB to a few MB). */
export const MAX_MODEL_BODY_BYTES = 16 * 1024 * 1024;
/**
 * A posted model's gate evaluation, as JSON: a gate writes a few KB (overall and each eval-set
 * layer's metrics, three times). Kept in one D1 value, which takes at most 2 MB.
 */
export const MAX_MODEL_EVALUATION_BYTES = 100_000;
/** A posted model's gate findings, and its reasons (one each): a gate finds at most one per check and layer. */
export const MAX_GATE_FINDINGS = 100;

/**
 * How old the training data a model is recorded from may be (from its read, `dataReadAt`, to the
 * model's POST): a model trained before an erasure finished forgets the erased questions, which are
 * kept that long after it (`erased_questions`). Retraining takes minutes; a day leaves room.
 */
export const TRAINING_DATA_MAX_AGE_MS = 24 * 60 * 60 * 1000;
