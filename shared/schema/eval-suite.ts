/**
 * A curated eval question (seed 000: "an eval set is a fixed, curated benchmark you run before
 * every deployment"): a question the team judged itself, with the chunks its retrieval returns for
 * it and which of them, or of their documents, answer it. The gate ranks its candidates with each
 * model; unlike the eval sets mined from feedback, its labels do not depend on what users were shown.
 */
import * as v from 'valibot';
import { MAX_CHUNK_TEXT, MAX_QUERY_CHARS } from '../thresholds.ts';
import { externalId, finite, freeText, wellFormed } from './common.ts';

/** Candidates of one question, in retrieval's order. */
export const MAX_SUITE_CANDIDATES = 100;
/** Questions in one project's suite. */
export const MAX_SUITE_QUERIES = 2_000;

const Candidate = v.strictObject({
  chunkId: externalId(),
  sourceDocId: externalId(),
  /** The chunk as the backend's traces log it (and `rerank()` is handed it). */
  text: v.pipe(v.string(), v.maxLength(MAX_CHUNK_TEXT), wellFormed()),
  /** Retrieval's score; absent, the rank alone speaks for retrieval. */
  score: v.optional(finite()),
});

/** A chunk's or a whole document's relevance to the question: 1 answers it, 0 does not. */
const Judgement = v.union(
  [v.strictObject({ chunkId: externalId(), relevance: v.picklist([0, 1]) }), v.strictObject({ sourceDocId: externalId(), relevance: v.picklist([0, 1]) })],
  'must be { chunkId, relevance } or { sourceDocId, relevance }, relevance 0 or 1',
);

export const SuiteQuerySchema = v.pipe(
  v.strictObject({
    query: v.pipe(freeText(MAX_QUERY_CHARS), v.trim(), v.minLength(1, 'must not be empty')),
    candidates: v.pipe(v.array(Candidate), v.minLength(1, 'must list the chunks retrieval returns'), v.maxLength(MAX_SUITE_CANDIDATES)),
    judgements: v.pipe(v.array(Judgement), v.minLength(1, 'must judge at least one chunk or document'), v.maxLength(MAX_SUITE_CANDIDATES)),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const q = dataset.value;
    // The issue's path names the item, as `candidates[3]`.
    const at = (key: 'candidates' | 'judgements', index: number): [v.IssuePathItem, v.IssuePathItem] => [
      { type: 'object' as const, origin: 'value' as const, input: q, key, value: q[key] },
      { type: 'array' as const, origin: 'value' as const, input: q[key], key: index, value: q[key][index] },
    ];
    const chunks = new Set<string>();
    q.candidates.forEach((c, index) => {
      if (chunks.has(c.chunkId)) addIssue({ message: `lists chunk ${c.chunkId} a second time`, path: at('candidates', index) });
      chunks.add(c.chunkId);
    });
    const documents = new Set(q.candidates.map((c) => c.sourceDocId));
    // Judged twice, the judgement read last would stand, whatever the other said.
    const judged = new Set<string>();
    q.judgements.forEach((j, index) => {
      const [kind, id] = 'chunkId' in j ? ['chunk', j.chunkId] : ['document', j.sourceDocId];
      if (!(kind === 'chunk' ? chunks : documents).has(id))
        addIssue({ message: 'judges a chunk or document that is not among the candidates', path: at('judgements', index) });
      else if (judged.has(`${kind} ${id}`)) addIssue({ message: `judges ${kind} ${id} a second time`, path: at('judgements', index) });
      judged.add(`${kind} ${id}`);
    });
  }),
);

export type SuiteQuery = v.InferOutput<typeof SuiteQuerySchema>;
