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

const Id = externalId();
/** What of a candidate the checks across the body read; the rest is checked beside them. */
const CandidateChunk = v.object({ chunkId: Id });
/** Candidates whose ids are all well typed: then which chunks and documents are candidates is known. */
const CandidateIds = v.pipe(v.array(v.object({ chunkId: Id, sourceDocId: Id })), v.minLength(1));

/** A part of the body as parsed so far, which need not be well typed. */
const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const SuiteQuerySchema = v.pipe(
  v.strictObject({
    query: v.pipe(freeText(MAX_QUERY_CHARS), v.trim(), v.minLength(1, 'must not be empty')),
    candidates: v.pipe(v.array(Candidate), v.minLength(1, 'must list the chunks retrieval returns'), v.maxLength(MAX_SUITE_CANDIDATES)),
    judgements: v.pipe(v.array(Judgement), v.minLength(1, 'must judge at least one chunk or document'), v.maxLength(MAX_SUITE_CANDIDATES)),
  }),
  // Runs whatever else is wrong, on the parts that are well typed, so its faults are named beside
  // the others in one round.
  v.rawCheck(({ dataset, addIssue }) => {
    const q: { candidates?: unknown; judgements?: unknown } = typeof dataset.value === 'object' && dataset.value !== null ? dataset.value : {};
    const candidates = listed(q.candidates);
    const judgements = listed(q.judgements);
    // The issue's path names the item, as `candidates[3]`.
    const at = (key: 'candidates' | 'judgements', list: unknown[], index: number): [v.IssuePathItem, v.IssuePathItem] => [
      { type: 'object', origin: 'value', input: q, key, value: list },
      { type: 'array', origin: 'value', input: list, key: index, value: list[index] },
    ];
    const chunks = new Set<string>();
    candidates.forEach((c, index) => {
      if (!v.is(CandidateChunk, c)) return;
      if (chunks.has(c.chunkId)) addIssue({ message: `lists chunk ${c.chunkId} a second time`, path: at('candidates', candidates, index) });
      chunks.add(c.chunkId);
    });
    // A candidate without a well-typed id could be the one a judgement names: none is said not to be.
    const among = v.is(CandidateIds, q.candidates) ? { chunk: chunks, document: new Set(q.candidates.map((c) => c.sourceDocId)) } : undefined;
    // Judged twice, the judgement read last would stand, whatever the other said.
    const judged = new Set<string>();
    judgements.forEach((j, index) => {
      if (!v.is(Judgement, j)) return;
      const [kind, id] = 'chunkId' in j ? (['chunk', j.chunkId] as const) : (['document', j.sourceDocId] as const);
      if (among && !among[kind].has(id))
        addIssue({ message: 'judges a chunk or document that is not among the candidates', path: at('judgements', judgements, index) });
      else if (judged.has(`${kind} ${id}`)) addIssue({ message: `judges ${kind} ${id} a second time`, path: at('judgements', judgements, index) });
      judged.add(`${kind} ${id}`);
    });
  }),
);

export type SuiteQuery = v.InferOutput<typeof SuiteQuerySchema>;
