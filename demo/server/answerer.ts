/**
 * One question in, one answer out, and its trace: BM25 retrieves the top chunks (for a short
 * follow-up, with the earlier turn's terms: follow-up.ts; for one that says the answer before was
 * wrong, without those words; for a regenerate, with the earlier turn's terms its answer was
 * searched with), the reranker reorders them, the best few
 * are answered from (a language model if configured, else quoted), and every stage's chunks go into
 * the trace the collector stores. The reranker and the quoted answer read the question, or of one
 * naming nothing of its own ("Are you sure?", "What else?"), what it was searched with.
 */
import { Bm25Index, type Bm25Options } from '../../shared/bm25.ts';
import { withoutPushback } from '../../shared/contradiction.ts';
import { cut } from '../../shared/cut.ts';
import { uuidv7 } from '../../shared/ids.ts';
import { redactPIIAndAddresses } from '../../shared/redact-address.ts';
import { remember } from '../../shared/remember.ts';
import type { Chunk as TraceChunk, TraceInput } from '../../shared/schema/trace.ts';
import { namesNothing, queryKey } from '../../shared/terms.ts';
import { KNOWLEDGE_BASE_CHARS, MAX_ANSWER_CHARS, MAX_CHUNK_TEXT, MAX_PROMPT_CHARS } from '../../shared/thresholds.ts';
import { type Chunk, type Corpus, passage } from '../corpus/chunk.ts';
import type { Citation } from './citations.ts';
import { DemoError } from './errors.ts';
import { EXTRACTIVE_MODEL, extractiveAnswer, type Reads } from './extractive.ts';
import { ASKING_FOR_MORE, boostedQuery, keptForFollowUps, leansOnEarlierTurn, withEarlierTurn } from './follow-up.ts';
import { type Generator, HISTORY_TURNS, type Turn } from './generate.ts';
import { identityReranker, type Reranker, type Scored } from './rerank.ts';

export interface AskRequest {
  /** The chat session, made by the page. */
  sessionId: string;
  query: string;
  /** 0-based turn in the session; a regenerate keeps the turn it replaces. */
  turnIndex: number;
  /** The trace of the answer this one replaces: one of this session and turn the demo still holds, else refused (`regenerate_unknown`). */
  regenerateOf?: string;
}

export interface AskResponse {
  traceId: string;
  /** The answer text, citing sources as `[n]`. */
  answer: string;
  citations: Citation[];
  model: string;
  /** The promoted reranker that ordered the sources; absent when retrieval's order was used. */
  rerankerVersion?: string;
  /** False when no passage answers at all (the quoted answer says so): another try would find the same nothing. */
  answered: boolean;
}

export interface AnswererOptions {
  corpus: Corpus;
  reranker?: Reranker;
  /** A language model; without it answers are quoted (`demo-extractive`). */
  generator?: Generator;
  /** Receives every trace (the trace client's `logTrace`). */
  logTrace?: (trace: TraceInput) => void;
  /** Told when a stage failed and the answer was made without it (retrieval's order, or quoting). */
  onStageError?: (stage: 'reranker' | 'generator', error: unknown) => void;
  /** Chunks retrieval returns and the trace records. */
  retrieveK?: number;
  /** Chunks kept after reranking, which the answer is built from. */
  answerK?: number;
  bm25?: Bm25Options;
  /** The clock traces are stamped with (default `Date.now`); a simulation stepping through weeks passes its own. */
  now?: () => number;
}

/** Sessions and answers remembered for follow-ups and regenerates; the oldest are forgotten first. */
const MAX_SESSIONS = 1000;
const MAX_ANSWERS = 5000;
/**
 * Turns a session keeps, its latest ones: those a model is sent before the next question, and that
 * question's own (which the one after it reads, and a regenerate replaces). A follow-up reads only
 * the turn before it, whose terms already carry the earlier ones it leans on.
 */
const KEPT_TURNS = HISTORY_TURNS + 1;

/** A turn as the session remembers it: for the language model, and for retrieving a follow-up. */
interface SessionTurn {
  query: string;
  /** Undefined while the answer is being made. */
  answer?: string;
  /** The weighted terms retrieval searched with, read from the question as redacted (the heaviest, for a long one): they reach the next turn's trace. */
  terms: ReadonlyMap<string, number>;
  /**
   * The sentences its latest answer quoted, and those it was to avoid (the answers it replaced, the
   * turn before's for "What else?"): a follow-up asking for more quotes others, so a second "What
   * else?" does not give back the first answer.
   */
  quoted?: ReadonlySet<string>;
  /** Of those, the ones its latest answer kept out and did not quote: "Are you sure?" after it keeps them out too, so it quotes that answer again. */
  avoided?: ReadonlySet<string>;
}

interface AnswerRecord {
  sessionId: string;
  turnIndex: number;
  /** Sentences this answer and those it was to avoid quoted (the answers it replaced, the turn before's for "What else?"): a regenerate quotes others. */
  quoted: Set<string>;
  /**
   * The terms of the turn before it that its search read (that turn's own `terms`, shared, not
   * copied), undefined when there was none: a regenerate is searched with them again, though the
   * session may have forgotten that turn since.
   */
  earlierTerms?: ReadonlyMap<string, number>;
}

/**
 * Text with any half of a character (a lone surrogate in the corpus's text or titles, or a model's
 * answer echoing one) replaced: the collector refuses a trace holding one.
 */
const wellFormedText = (text: string): string => text.replace(/\p{Cs}/gu, '\uFFFD');

/** Text as a trace takes it: within its length (a pair the limit falls inside dropped whole), and whole characters only. */
const traceText = (text: string, max = MAX_CHUNK_TEXT): string => wellFormedText(cut(text, max));

const traceChunks = (scored: readonly Scored[]): TraceChunk[] =>
  scored.map(({ chunk, score }, i) => ({
    chunkId: chunk.chunkId,
    sourceDocId: chunk.sourceDocId,
    sourceDocVersion: chunk.sourceDocVersion,
    score,
    rank: i + 1,
    text: traceText(passage(chunk)),
  }));

/** Sets a session's turn, forgetting its earliest turns past `KEPT_TURNS`. */
function keepTurn(turns: Map<number, SessionTurn>, index: number, turn: SessionTurn): void {
  turns.set(index, turn);
  while (turns.size > KEPT_TURNS) turns.delete(Math.min(...turns.keys()));
}

export function createAnswerer(options: AnswererOptions) {
  const { corpus, reranker = identityReranker, generator, logTrace, onStageError, retrieveK = 20, answerK = 5, now = Date.now } = options;
  const index = new Bm25Index(corpus.chunks, options.bm25);
  const sessions = new Map<string, Map<number, SessionTurn>>();
  const answers = new Map<string, AnswerRecord>();

  /** The reranker's order, or retrieval's when the reranker fails (then no version is claimed). */
  async function rerank(query: string, retrieved: Scored[]): Promise<{ reranked: Scored[]; version?: string }> {
    try {
      const { ranked, version } = await reranker.rerank(query, retrieved);
      return { reranked: ranked.slice(0, answerK), version };
    } catch (err) {
      onStageError?.('reranker', err);
      return { reranked: retrieved.slice(0, answerK) };
    }
  }

  /** The model's answer if there is a model and it answers, else the one quoting what `reads` asks. */
  async function compose(req: AskRequest, reads: Reads, chunks: Chunk[], history: Turn[], exclude: ReadonlySet<string>) {
    if (generator && chunks.length) {
      try {
        const { answer, citations, prompt } = await generator.generate(req.query, chunks, history, { regenerate: !!req.regenerateOf });
        return { answer, citations, prompt, model: generator.model, quoted: [] };
      } catch (err) {
        onStageError?.('generator', err);
      }
    }
    const quotedAnswer = extractiveAnswer(reads, chunks, (t) => index.idf(t), { exclude });
    return { ...quotedAnswer, prompt: undefined, model: EXTRACTIVE_MODEL };
  }

  async function ask(req: AskRequest): Promise<AskResponse> {
    // A regenerate is honoured within its own session and turn only.
    const replaced = req.regenerateOf ? answers.get(req.regenerateOf) : undefined;
    const previous = replaced?.sessionId === req.sessionId && replaced.turnIndex === req.turnIndex ? replaced : undefined;
    // Without the answer it replaces (the demo restarted, or has forgotten it since), it could be searched
    // neither as that was nor for other sentences: refused, rather than answered as a new question.
    if (req.regenerateOf && !previous)
      throw new DemoError(
        409,
        'regenerate_unknown',
        `The demo no longer holds this answer of this turn (it has restarted, or keeps only its latest ${MAX_ANSWERS} answers): ask the question again`,
        'regenerateOf',
      );
    const createdAt = now();
    const traceId = uuidv7(createdAt);
    const turns = sessions.get(req.sessionId) ?? new Map<number, SessionTurn>();
    remember(sessions, req.sessionId, turns, MAX_SESSIONS);
    const earlier = [...turns]
      .filter(([turn]) => turn < req.turnIndex)
      .sort(([a], [b]) => a - b)
      .map(([, t]) => t);
    // A regenerate reads the turn before as the answer it replaces did, however many turns the session has forgotten since.
    const before = previous ? previous.earlierTerms : earlier.at(-1)?.terms;
    const hasEarlier = before !== undefined && before.size > 0;
    // "That's wrong. Is it 30 days?" is searched for what it asks; "Are you sure?" alone, for the turn before it.
    // Without a turn before it (a new chat, or the demo restarted), one naming nothing of its own has
    // nothing to search: "What else?" would be answered with whatever says "else".
    const asked = hasEarlier ? withoutPushback(req.query) : queryKey(req.query) ? req.query : '';
    const own = index.queryTerms(asked);
    const followUp = hasEarlier && leansOnEarlierTurn(own);
    const terms = followUp ? withEarlierTurn(own, before) : own;
    // What the reranker and the quoted answer read: the question, or for one naming nothing of its own
    // ("Are you sure?", "What else?", "Why?"), the terms it was searched with, which are the turn before's.
    const namesNone = followUp && namesNothing(own.keys());
    const reads: Reads = namesNone ? terms : req.query;
    // Sentences not to quote again: those of the answers a regenerate replaces, and for "What else?" the turn before's.
    // "Are you sure?" or "Why?" quotes the turn before's answer again: what that answer kept out, it keeps out too.
    const asksForMore = namesNone && [...own.keys()].some((term) => ASKING_FOR_MORE.has(term));
    const turnBefore = earlier.at(-1);
    const exclude = new Set([...(previous?.quoted ?? []), ...((namesNone && (asksForMore ? turnBefore?.quoted : turnBefore?.avoided)) || [])]);
    // What outlives this request (the next turn's context, the trace's rewrite) is read from the question as redacted.
    const redacted = index.queryTerms(redactPIIAndAddresses(asked));
    const kept = followUp ? withEarlierTurn(redacted, before) : redacted;
    const rewrite = followUp || asked !== req.query ? boostedQuery(kept) : '';
    // One naming nothing is about the turn before's subject and passes it on as it came: faded at each
    // of a chain of them ("Are you sure?", "Why?", "What else?"), it would soon be searched for nothing.
    const remembered = namesNone ? before! : keptForFollowUps(kept, (t) => index.idf(t));
    // Known at once, so a question sent before this answer is made still reads this turn.
    keepTurn(turns, req.turnIndex, { query: req.query, terms: remembered });
    const retrieved: Scored[] = index.searchTerms(terms, retrieveK).map((h) => ({ chunk: h.doc, score: h.score }));
    // A reranker reads text: those terms as words.
    const rerankQuery = typeof reads === 'string' ? reads : [...reads.keys()].join(' ');
    const { reranked, version: rerankerVersion } = await rerank(rerankQuery, retrieved);
    const history = earlier.flatMap(({ query, answer }) => (answer === undefined ? [] : [{ query, answer }]));
    const composed = await compose(
      req,
      reads,
      reranked.map((s) => s.chunk),
      history,
      exclude,
    );
    const { model } = composed;
    const quoted = new Set([...exclude, ...composed.quoted]);
    // The page shows the answer the trace keeps (one the collector refused would leave a widget with no trace behind it),
    // and titles as whole characters too: the widget names the sources by them.
    const answer = traceText(composed.answer, MAX_ANSWER_CHARS);
    const citations = composed.citations.map((c) => ({ ...c, title: wellFormedText(c.title) }));
    const prompt = composed.prompt === undefined ? undefined : traceText(composed.prompt, MAX_PROMPT_CHARS);

    remember(
      answers,
      traceId,
      {
        sessionId: req.sessionId,
        turnIndex: req.turnIndex,
        quoted,
        ...(hasEarlier && { earlierTerms: before }),
      },
      MAX_ANSWERS,
    );
    const avoided = new Set(exclude);
    for (const sentence of composed.quoted) avoided.delete(sentence);
    keepTurn(turns, req.turnIndex, { query: req.query, answer, terms: remembered, quoted, avoided });

    logTrace?.({
      traceId,
      query: req.query,
      ...(rewrite && { rewrittenQuery: rewrite }),
      retrieval: { topK: retrieveK },
      retrievedChunks: traceChunks(retrieved),
      rerankedChunks: traceChunks(reranked),
      ...(prompt !== undefined && { prompt }),
      answer,
      model,
      ...(rerankerVersion !== undefined && { rerankerVersion }),
      sessionId: req.sessionId,
      turnIndex: req.turnIndex,
      // A collection's name is its directory's, which may be longer than a trace takes.
      knowledgeBase: cut(corpus.name, KNOWLEDGE_BASE_CHARS),
      createdAt,
    });
    const answered = model !== EXTRACTIVE_MODEL || citations.length > 0;
    return { traceId, answer, citations, model, ...(rerankerVersion !== undefined && { rerankerVersion }), answered };
  }

  return { ask };
}

export type Answerer = ReturnType<typeof createAnswerer>;
