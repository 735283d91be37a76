/**
 * The reranker's artifact: everything `rerank()` needs, as plain JSON, so the collector can store
 * it in D1, serve it with an ETag, and a backend in Node or a Worker can score with it. Its size
 * grows with confirmed judgements (the memory and the priors of judged chunks), not with traffic.
 */
import * as v from 'valibot';
import { finite, isPathSegment } from '../schema/common.ts';
import { EMBEDDING_FEATURES, LEXICAL_FEATURES } from './features.ts';
import { idRecord } from './id-record.ts';
import { isPackedVector } from './vectors.ts';

/** Bumped when the artifact's meaning changes; `rerank()` refuses a format it does not know. */
export const RERANKER_FORMAT = 'rag-feedback.reranker/1';

/** The smallest scale a feature is standardised by: below it, training takes the feature as constant (scale 1). */
export const MIN_SCALE = 1e-6;

/** A weighted count: never below 0, which would make a prior's log-odds infinite and a score NaN. */
const count = () => v.pipe(finite(), v.minValue(0, 'must be 0 or more'));

/**
 * The artifact's schema, lenient or strict, from one definition. Read back (the collector reading
 * what it stored, a client of another version fetching the served model), a field this version
 * does not know is dropped: a newer collector may add one. Taken in (`POST /v1/admin/models`), it
 * is refused instead, as is an extra entry of a pair, so a misspelt field is named rather than lost;
 * and so is a version no URL could reach (one stored before stays readable).
 *
 * Every number is finite: JSON reads 1e400 as Infinity, and storing it writes null, an artifact
 * no one could parse again.
 */
function rerankerModelSchema(strict: boolean) {
  // Each pair takes the same arguments and gives the same output; the strict one refuses what it does not know.
  const object = (strict ? v.strictObject : v.object) as typeof v.object;
  const tuple = (strict ? v.strictTuple : v.tuple) as typeof v.tuple;

  /** Evidence for one chunk or document: [relevant, not relevant], each a weighted count. */
  const Evidence = tuple([count(), count()]);
  /** Per chunk or document id: every id kept, `constructor` and `__proto__` included. */
  const byId = () => idRecord(Evidence);

  /** A confirmed (query, chunk) judgement, consulted for new queries that resemble its query. */
  const Judgement = object({
    /** Index into `memory.queries`. */
    query: v.pipe(v.number(), v.integer(), v.minValue(0)),
    chunkId: v.string(),
    sourceDocId: v.string(),
    /** 1 relevant, 0 not relevant. */
    relevance: v.picklist([0, 1]),
  });

  /** A judged query: its distinct terms and, when the model was trained with an embedder, its vector (int8, base64). */
  const MemoryQuery = object({
    terms: v.array(v.string()),
    // Ranking unpacks it: anything but base64 would make every ranking with the model throw.
    vector: v.optional(v.pipe(v.string(), v.check(isPackedVector, 'must be base64, as packVector writes it'))),
  });

  return v.pipe(
    object({
      format: v.literal(RERANKER_FORMAT),
      /** Unique per project: logged on traces as `rerankerVersion`. */
      version: v.pipe(
        v.string(),
        v.regex(/^[\w.:-]{1,100}$/, 'must be 1-100 letters, digits and . : _ -'),
        // `GET /v1/admin/models/..` is normalised away before any route sees it; one stored already is still read.
        v.check((s) => !strict || isPathSegment(s), 'cannot be . or .., which a URL path cannot name'),
      ),
      createdAt: finite(),
      /** Feature names in the order of `weights`; see `features.ts`. A name this version cannot compute could not rank. */
      features: v.array(v.picklist([...LEXICAL_FEATURES, ...EMBEDDING_FEATURES], 'is not a feature this version computes')),
      weights: v.array(finite()),
      /** Standardisation learned in training: (x - mean) / scale per feature. */
      mean: v.array(finite()),
      /** Divides each feature: at least what training ever writes (a scale near 0 would make every score NaN). */
      scale: v.array(v.pipe(finite(), v.minValue(MIN_SCALE, `must be at least ${MIN_SCALE}`))),
      /** Smoothed per-chunk and per-document evidence from confirmed judgements. */
      priors: object({ chunks: byId(), documents: byId() }),
      /**
       * Position-debiased engagement per chunk and per document: [engagements, impressions weighted
       * by their rank's examination probability]; `baseRate` is engagements per examined impression.
       * Models trained before documents were kept have none: their chunks then stand alone.
       */
      engagement: object({ baseRate: finite(), chunks: byId(), documents: v.optional(byId()) }),
      memory: object({ queries: v.array(MemoryQuery), judgements: v.array(Judgement) }),
      /** Estimated probability that a user examines rank k (index k - 1), relative to rank 1. */
      examination: v.array(finite()),
      /** The embedder whose vectors the embedding features were trained on, if any. */
      embedder: v.optional(v.string()),
      /** What it was trained on, for the registry and the README's size figures. */
      training: object({
        confirmed: finite(),
        queries: finite(),
        pairs: finite(),
      }),
    }),
    v.check(
      (m) => m.weights.length === m.features.length && m.mean.length === m.features.length && m.scale.length === m.features.length,
      'weights, mean and scale must have one entry per feature',
    ),
  );
}

/** An artifact as read back: a field added by a newer version is dropped, not refused. */
export const RerankerModelSchema = rerankerModelSchema(false);
/** An artifact as the admin API takes it in: a field this version does not know is refused, naming it. */
export const StrictRerankerModelSchema = rerankerModelSchema(true);

export type RerankerModel = v.InferOutput<typeof RerankerModelSchema>;
export type Judgement = RerankerModel['memory']['judgements'][number];

/** Parses an artifact from JSON or an object, with a clear error naming what is wrong. */
export function parseRerankerModel(input: unknown): RerankerModel {
  const result = v.safeParse(RerankerModelSchema, typeof input === 'string' ? JSON.parse(input) : input);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`not a reranker model: ${v.getDotPath(issue) ?? 'artifact'}: ${issue.message}`);
  }
  return result.output;
}
