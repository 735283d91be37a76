import * as v from 'valibot';
import { KNOWLEDGE_BASE_CHARS, MAX_ANSWER_CHARS, MAX_CHUNK_TEXT, MAX_PROMPT_CHARS, MAX_QUERY_CHARS } from '../thresholds.ts';
import { epochMs, externalId, finite, freeText, label, wellFormed } from './common.ts';

/** One chunk as a retrieval stage saw it. */
export const ChunkSchema = v.strictObject({
  /** Stable id of the chunk in the index; widget citations carry it as `data-chunk-id`. */
  chunkId: externalId(),
  /** The document the chunk was cut from, so negative feedback can reach the document's owner. */
  sourceDocId: externalId(),
  /** Version of that document, so a stale-document flag can name the version users saw. */
  sourceDocVersion: v.optional(label(100)),
  /** Score given by this stage (similarity or reranker score). */
  score: finite(),
  /** 1-based position after this stage. */
  rank: v.pipe(v.number(), v.safeInteger(), v.minValue(1), v.maxValue(1000)),
  /** The chunk text, needed to review hard negatives and to retrain. */
  text: v.pipe(v.string(), v.maxLength(MAX_CHUNK_TEXT), wellFormed()),
});

/**
 * One stage's chunks: at most 200, each rank once. A stage's chunks are stored by rank, so a
 * second chunk at a rank could not be kept; it is refused, named at its own `rank`.
 * (A chunk id may repeat: its rows are kept apart by rank.)
 */
const stageChunks = () =>
  v.pipe(
    v.array(ChunkSchema),
    v.maxLength(200),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const chunks = dataset.value;
      const seen = new Set<number>();
      chunks.forEach((chunk, index) => {
        if (seen.has(chunk.rank)) {
          addIssue({
            message: `rank ${chunk.rank} is given to an earlier chunk of this stage`,
            path: [
              { type: 'array', origin: 'value', input: chunks, key: index, value: chunk },
              { type: 'object', origin: 'value', input: chunk, key: 'rank', value: chunk.rank },
            ],
          });
        }
        seen.add(chunk.rank);
      });
    }),
  );

/** Retrieval settings in force for this query, to tell bad retrieval from bad tuning. */
export const RetrievalParamsSchema = v.strictObject({
  /** How many chunks retrieval returned. */
  topK: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1), v.maxValue(1000))),
  /** Similarity cut-off below which chunks were dropped. */
  threshold: v.optional(finite()),
  /** Embedding model used for the query, so retraining compares like with like. */
  embeddingModel: v.optional(label()),
});

/** The full record of one query: what was retrieved, what the model saw, what came out. */
export const TraceSchema = v.strictObject({
  /** Made when retrieval starts and threaded to the widget, so feedback reconnects to these chunks. */
  traceId: externalId(),
  /** The user's question as asked (redacted on arrival). */
  query: freeText(MAX_QUERY_CHARS),
  /** The query after rewriting, if any: a bad rewrite is its own failure mode. */
  rewrittenQuery: v.optional(freeText(MAX_QUERY_CHARS)),
  /** Retrieval settings for this query. */
  retrieval: v.optional(RetrievalParamsSchema, {}),
  /** Chunks as retrieval returned them, in rank order. */
  retrievedChunks: stageChunks(),
  /** Chunks after reranking, if a reranker ran. */
  rerankedChunks: v.optional(stageChunks()),
  /** The prompt sent to the model (redacted on arrival). */
  prompt: v.optional(freeText(MAX_PROMPT_CHARS)),
  /** The answer shown to the user (redacted on arrival). */
  answer: freeText(MAX_ANSWER_CHARS),
  /** The generating model, to split quality by model. */
  model: label(),
  /** Reranker version in production, so retraining knows what it must beat. */
  rerankerVersion: v.optional(label(100)),
  /** A hash of the user id: lets the loop spot one user flooding without storing who it is. */
  userIdHash: v.optional(externalId()),
  /** The chat session; rephrase and multi-turn attribution work within it. */
  sessionId: v.optional(externalId()),
  /** 0-based turn of this answer in the conversation, for multi-turn attribution. */
  turnIndex: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(10_000))),
  /** Intent class of the query, to group failures by kind of question. */
  intent: v.optional(label(100)),
  /** The knowledge base or collection searched. */
  knowledgeBase: v.optional(label(KNOWLEDGE_BASE_CHARS)),
  /** When retrieval started, epoch ms (the backend's clock). */
  createdAt: epochMs(),
});

export type Chunk = v.InferOutput<typeof ChunkSchema>;
export type Trace = v.InferOutput<typeof TraceSchema>;
/** What a backend sends (before defaults are applied). */
export type TraceInput = v.InferInput<typeof TraceSchema>;
