import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type TraceInput, TraceSchema } from '../../shared/schema/trace.ts';
import { KNOWLEDGE_BASE_CHARS, MAX_ANSWER_CHARS, MAX_CHUNK_TEXT, MAX_PROMPT_CHARS } from '../../shared/thresholds.ts';
import type { Chunk, Corpus } from '../corpus/chunk.ts';
import { loadDocs } from '../corpus/docs.ts';
import { createAnswerer } from './answerer.ts';
import { EARLIER_TURN_MAX_TERMS } from './follow-up.ts';
import { type Generator, HISTORY_TURNS } from './generate.ts';
import type { Reranker } from './rerank.ts';

const chunk = (i: number, text: string): Chunk => ({ chunkId: `c${i}`, sourceDocId: `doc${i}.md`, sourceDocVersion: 'v1', title: `Doc ${i}`, text });
// 30 chunks that all mention refunds, so retrieval has more than it keeps.
const corpus: Corpus = {
  name: 'shop docs',
  chunks: Array.from({ length: 30 }, (_, i) =>
    chunk(i, `Refund rule ${i}: opened items within ${i + 1} days. Refunds go to the card used.${' filler'.repeat(i)}`),
  ),
};

/** Leaflets where a follow-up's own words ("side effects") find another medicine than the turn before it. */
const medicines: Corpus = {
  name: 'leaflets',
  chunks: [
    chunk(0, 'Ibuprofen side effects: stomach pain and heartburn.'),
    chunk(1, 'Aspirin side effects: bleeding and stomach ulcers.'),
    chunk(2, 'Aspirin dose: one tablet every four hours, at most four a day.'),
    chunk(3, 'Paracetamol dose: two tablets every six hours for adults.'),
  ],
};

/** A language model that answers anything, keeping the questions of the history each call was sent. */
function recordingGenerator() {
  const histories: string[][] = [];
  const generator: Generator = {
    model: 'test-llm',
    async generate(_query, _chunks, history) {
      histories.push(history.map((t) => t.query));
      return { answer: `Answer ${histories.length} [1].`, citations: [], prompt: 'p' };
    },
  };
  return { histories, generator };
}

function setup(options: Partial<Parameters<typeof createAnswerer>[0]> = {}) {
  const traces: TraceInput[] = [];
  const answerer = createAnswerer({ corpus, logTrace: (t) => traces.push(t), ...options });
  return { answerer, traces };
}

describe('createAnswerer', () => {
  it('logs a trace the collector accepts: top 20 retrieved, top 5 reranked, the answer, session and turn', async () => {
    const { answerer, traces } = setup();
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 2 });
    expect(traces).toHaveLength(1);
    const trace = v.parse(TraceSchema, traces[0]);
    expect(trace.traceId).toBe(res.traceId);
    expect(trace.retrievedChunks).toHaveLength(20);
    expect(trace.retrievedChunks.map((c) => c.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(trace.rerankedChunks).toHaveLength(5);
    expect(trace.retrievedChunks[0]!.score).toBeGreaterThanOrEqual(trace.retrievedChunks[19]!.score);
    expect(trace).toMatchObject({ answer: res.answer, model: 'demo-extractive', sessionId: 's-1', turnIndex: 2, knowledgeBase: 'shop docs' });
    expect(trace.rerankerVersion).toBeUndefined();
    expect(res.citations.length).toBeGreaterThan(0);
    for (const c of res.citations) expect(trace.rerankedChunks!.map((r) => r.chunkId)).toContain(c.chunkId);
    // Each chunk as the reranker reads it, title first: retraining learns from this text.
    const first = corpus.chunks.find((c) => c.chunkId === trace.retrievedChunks[0]!.chunkId)!;
    expect(trace.retrievedChunks[0]!.text).toBe(`${first.title}\n${first.text}`);
  });

  it('logs a passage the collector accepts when its length limit falls inside a character, or its text holds half of one', async () => {
    const long = 'refund '.repeat(3_000);
    // "Doc 0\n" and the text: the limit falls between the two halves of the emoji.
    const cutInside = chunk(0, `${long.slice(0, MAX_CHUNK_TEXT - 'Doc 0\n'.length - 1)}😀 refund`);
    const broken = chunk(1, 'refund policy \ud800 for opened items');
    const traces: TraceInput[] = [];
    const answerer = createAnswerer({ corpus: { name: 'odd', chunks: [cutInside, broken] }, logTrace: (t) => traces.push(t) });
    await answerer.ask({ sessionId: 's-1', query: 'refund', turnIndex: 0 });
    const trace = v.parse(TraceSchema, traces[0]);
    const texts = new Map(trace.retrievedChunks.map((c) => [c.chunkId, c.text]));
    expect(texts.get('c0')!.length).toBe(MAX_CHUNK_TEXT - 1);
    expect(texts.get('c1')).toBe('Doc 1\nrefund policy \ufffd for opened items');
  });

  it("logs a trace the collector accepts whatever the length of the collection's name", async () => {
    const traces: TraceInput[] = [];
    const name = `${'a'.repeat(KNOWLEDGE_BASE_CHARS - 1)}😀 and more`;
    const answerer = createAnswerer({ corpus: { ...corpus, name }, logTrace: (t) => traces.push(t) });
    await answerer.ask({ query: 'refund window', sessionId: 's', turnIndex: 0 });
    expect(v.parse(TraceSchema, traces[0]).knowledgeBase).toBe('a'.repeat(KNOWLEDGE_BASE_CHARS - 1));
  });

  it('quotes a sentence or names a title holding half of a character as the collector takes it, on the page as in the trace', async () => {
    const broken: Chunk = {
      chunkId: 'b',
      sourceDocId: 'b.md',
      sourceDocVersion: 'v1',
      title: 'Refunds \ud800',
      text: 'Opened items \udc00 are refunded within 14 days.',
    };
    const traces: TraceInput[] = [];
    const answerer = createAnswerer({ corpus: { name: 'odd', chunks: [broken] }, logTrace: (t) => traces.push(t) });
    const res = await answerer.ask({ sessionId: 's-1', query: 'opened items refunded', turnIndex: 0 });
    expect(res.answer).toBe('Opened items \ufffd are refunded within 14 days. [1]');
    expect(res.citations[0]!.title).toBe('Refunds \ufffd');
    expect(v.parse(TraceSchema, traces[0]).answer).toBe(res.answer);
  });

  it("logs a model's prompt and answer as the collector takes them: the prompt within its limit, never half of a character", async () => {
    const generator: Generator = {
      model: 'test-llm',
      generate: async (_query, chunks) => ({
        answer: 'Within 14 days \ud83d [1].',
        citations: [{ n: 1, chunkId: chunks[0]!.chunkId, sourceDocId: 'd', title: 'Doc \udc00', snippet: 's' }],
        // The limit falls inside the emoji, and a title in the sources holds half of a character.
        prompt: `Doc \ud800\n${'x'.repeat(MAX_PROMPT_CHARS - 'Doc \ud800\n'.length - 1)}😀 and more`,
      }),
    };
    const { answerer, traces } = setup({ generator });
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund?', turnIndex: 0 });
    expect(res.answer).toBe('Within 14 days \ufffd [1].');
    expect(res.citations[0]!.title).toBe('Doc \ufffd');
    const trace = v.parse(TraceSchema, traces[0]);
    expect(trace.answer).toBe(res.answer);
    expect(trace.prompt).toHaveLength(MAX_PROMPT_CHARS - 1);
    expect(trace.prompt!.startsWith('Doc \ufffd\n')).toBe(true);
  });

  it("keeps a model's answer within what a trace keeps, so the page never shows one the collector refused", async () => {
    const generator: Generator = {
      model: 'test-llm',
      generate: async () => ({ answer: `${'Refunds take 14 days. '.repeat(3_000)}[1]`, citations: [], prompt: 'p' }),
    };
    const { answerer, traces } = setup({ generator });
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund?', turnIndex: 0 });
    expect(res.answer.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    expect(v.parse(TraceSchema, traces[0]).answer).toBe(res.answer);
  });

  it('stamps traces with the clock it is given, and their ids follow it', async () => {
    const at = Date.UTC(2027, 0, 4, 12);
    const { answerer, traces } = setup({ now: () => at });
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0 });
    expect(traces[0]!.createdAt).toBe(at);
    // UUIDv7 carries its time in the first 48 bits.
    expect(Number.parseInt(res.traceId.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('answers from the reranker order and records its version', async () => {
    const reverse = {
      rerank: (_q: string, c: readonly { chunk: Chunk; score: number }[]) => ({
        ranked: [...c].reverse().map((s, i) => ({ ...s, score: 1 / (i + 1) })),
        version: 'reverse-1',
      }),
    };
    const { answerer, traces } = setup({ reranker: reverse });
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0 });
    const [trace] = traces;
    expect(trace!.rerankerVersion).toBe('reverse-1');
    expect(res.rerankerVersion).toBe('reverse-1');
    expect(trace!.rerankedChunks![0]!.chunkId).toBe(trace!.retrievedChunks[19]!.chunkId);
    expect(trace!.rerankedChunks!.map((c) => c.score)).toEqual([1, 1 / 2, 1 / 3, 1 / 4, 1 / 5]);
  });

  it('regenerates with other sentences, in the same turn and under a new trace', async () => {
    const { answerer, traces } = setup();
    const first = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0 });
    const again = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0, regenerateOf: first.traceId });
    expect(again.traceId).not.toBe(first.traceId);
    expect(again.answer).not.toBe(first.answer);
    expect(traces.map((t) => t.turnIndex)).toEqual([0, 0]);
  });

  it('refuses a regenerate of an answer it does not hold for that session and turn, naming regenerateOf, and answers nothing for it', async () => {
    const { answerer, traces } = setup();
    const first = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0 });
    const refused = { status: 409, code: 'regenerate_unknown', field: 'regenerateOf' };
    // The demo restarted (or has forgotten the answer): the same passages again would come without a word, and a follow-up without its turn before.
    const unknown = '01890a5d-ac96-774b-bcce-b302099a8057';
    await expect(answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0, regenerateOf: unknown })).rejects.toMatchObject(refused);
    // Another session cannot steer this one's regenerate, nor another turn.
    await expect(answerer.ask({ sessionId: 's-2', query: 'refund for opened items', turnIndex: 0, regenerateOf: first.traceId })).rejects.toMatchObject(
      refused,
    );
    await expect(answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 1, regenerateOf: first.traceId })).rejects.toMatchObject(
      refused,
    );
    // No trace: nothing was answered.
    expect(traces).toHaveLength(1);
  });

  it('uses the language model when there is one, with the session so far, and quotes when it fails', async () => {
    const calls: { history: unknown[]; chunks: number }[] = [];
    let fail = false;
    const generator: Generator = {
      model: 'test-llm',
      async generate(_query, chunks, history) {
        calls.push({ history: [...history], chunks: chunks.length });
        if (fail) throw new Error('down');
        return {
          answer: 'Within a few days [2].',
          citations: [{ n: 2, chunkId: chunks[1]!.chunkId, sourceDocId: 'd', title: 't', snippet: 's' }],
          prompt: 'the prompt',
        };
      },
    };
    const errors: unknown[] = [];
    const { answerer, traces } = setup({ generator, onStageError: (stage, e) => errors.push([stage, e]) });
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund?', turnIndex: 0 });
    expect(res).toMatchObject({ answer: 'Within a few days [2].', model: 'test-llm', answered: true });
    expect(traces[0]).toMatchObject({ model: 'test-llm', prompt: 'the prompt' });
    fail = true;
    const fallback = await answerer.ask({ sessionId: 's-1', query: 'and for opened items?', turnIndex: 1 });
    expect(fallback.model).toBe('demo-extractive');
    expect(errors).toHaveLength(1);
    expect(calls[1]).toEqual({ history: [{ query: 'refund?', answer: 'Within a few days [2].' }], chunks: 5 });
  });

  it('keeps a session to its latest turns: those a model is sent before a question, and the one a regenerate of the last still needs', async () => {
    const { histories, generator } = recordingGenerator();
    const { answerer, traces } = setup({ generator });
    const asked = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `refund question ${from + i}`);
    for (let turn = 0; turn < 10; turn++) await answerer.ask({ sessionId: 's-1', query: `refund question ${turn}`, turnIndex: turn });
    // Turn 9 found the 5 turns before it (the model reads the last HISTORY_TURNS), not all 9.
    expect(histories.at(-1)).toEqual(asked(9 - HISTORY_TURNS - 1, 8));
    await answerer.ask({ sessionId: 's-1', query: 'refund question 9', turnIndex: 9, regenerateOf: traces.at(-1)!.traceId });
    expect(histories.at(-1)).toEqual(asked(9 - HISTORY_TURNS, 8));
    await answerer.ask({ sessionId: 's-1', query: 'refund question 10', turnIndex: 10 });
    expect(histories.at(-1)).toEqual(asked(10 - HISTORY_TURNS - 1, 9));
  });

  it("keeps retrieval's order, without a reranker version, when the reranker fails", async () => {
    const errors: string[] = [];
    const broken = {
      rerank: (): never => {
        throw new Error('no model');
      },
    };
    const { answerer, traces } = setup({ reranker: broken, onStageError: (stage) => errors.push(stage) });
    const res = await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0 });
    expect(errors).toEqual(['reranker']);
    expect(traces[0]!.rerankedChunks).toEqual(traces[0]!.retrievedChunks.slice(0, 5));
    expect(traces[0]!.rerankerVersion).toBeUndefined();
    expect(res).not.toHaveProperty('rerankerVersion');
  });

  it("searches a short follow-up with the earlier turn's subject, and a question that names enough alone", async () => {
    const { answerer, traces } = setup({ corpus: medicines });
    const top = (i: number) => traces[i]!.retrievedChunks[0]!.chunkId;
    await answerer.ask({ sessionId: 's-1', query: 'What aspirin dose is safe?', turnIndex: 0 });
    expect(top(0)).toBe('c2');
    await answerer.ask({ sessionId: 's-1', query: 'What about side effects?', turnIndex: 1 });
    expect(top(1)).toBe('c1');
    // The trace says what was searched; a question searched alone has no rewrite.
    expect(traces[1]!.rewrittenQuery).toBe('side effects aspirin^0.5 dose^0.5 safe^0.5');
    expect(traces[0]!.rewrittenQuery).toBeUndefined();
    expect(v.safeParse(TraceSchema, traces[1]).success).toBe(true);
    // The same words opening another session tie both leaflets on side effects: the first wins.
    await answerer.ask({ sessionId: 's-2', query: 'What about side effects?', turnIndex: 0 });
    expect(top(2)).toBe('c0');
    // Naming enough of its own, a question is searched alone, even after a turn on aspirin.
    await answerer.ask({ sessionId: 's-1', query: 'paracetamol tablets adults hours', turnIndex: 2 });
    await answerer.ask({ sessionId: 's-3', query: 'paracetamol tablets adults hours', turnIndex: 0 });
    expect(traces[3]!.retrievedChunks).toEqual(traces[4]!.retrievedChunks);
    expect(traces[3]!.rewrittenQuery).toBeUndefined();
    // A regenerate of the follow-up reads it with the same earlier turn.
    await answerer.ask({ sessionId: 's-1', query: 'What about side effects?', turnIndex: 1, regenerateOf: traces[1]!.traceId });
    expect(traces[5]!.retrievedChunks).toEqual(traces[1]!.retrievedChunks);
  });

  it('keeps for the follow-ups of a question pasted whole only its terms that weigh most in a search, not every word of it', async () => {
    const { answerer, traces } = setup({ corpus: medicines });
    // 200 words no leaflet holds, then what the question is about.
    const words = Array.from({ length: 200 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}zz`);
    await answerer.ask({ sessionId: 's-1', query: `${words.join(' ')} aspirin dose`, turnIndex: 0 });
    await answerer.ask({ sessionId: 's-1', query: 'What about side effects?', turnIndex: 1 });
    const earlier = traces[1]!.rewrittenQuery!.split(' ').filter((part) => part.endsWith('^0.5'));
    expect(earlier).toHaveLength(EARLIER_TURN_MAX_TERMS);
    expect(earlier).toEqual(expect.arrayContaining(['aspirin^0.5', 'dose^0.5']));
    expect(traces[1]!.retrievedChunks[0]!.chunkId).toBe('c1');
  });

  it('regenerates an old follow-up as it was searched, with the turn before it the session has forgotten, and sends a model the turns still kept', async () => {
    const { histories, generator } = recordingGenerator();
    const { answerer, traces } = setup({ corpus: medicines, generator });
    await answerer.ask({ sessionId: 's-1', query: 'What aspirin dose is safe?', turnIndex: 0 });
    await answerer.ask({ sessionId: 's-1', query: 'What about side effects?', turnIndex: 1 });
    const followUp = traces[1]!;
    expect(followUp.retrievedChunks[0]!.chunkId).toBe('c1');
    // More turns than a session keeps: turns 0 and 1 are forgotten.
    const later = HISTORY_TURNS + 1;
    for (let turn = 2; turn < 2 + later; turn++) {
      await answerer.ask({ sessionId: 's-1', query: `paracetamol tablets adults hours ${turn}`, turnIndex: turn });
    }
    await answerer.ask({ sessionId: 's-1', query: 'What about side effects?', turnIndex: 1, regenerateOf: followUp.traceId });
    const again = traces.at(-1)!;
    // Searched with the aspirin turn it leaned on, not its own words alone (which find ibuprofen first).
    expect(again.retrievedChunks).toEqual(followUp.retrievedChunks);
    expect(again).toMatchObject({ turnIndex: 1, rewrittenQuery: followUp.rewrittenQuery });
    expect(followUp.rewrittenQuery).toBe('side effects aspirin^0.5 dose^0.5 safe^0.5');
    // The model is sent what the session still holds before that turn: nothing.
    expect(histories.at(-1)).toEqual([]);
    // A regenerate of that regenerate reads the same, and the turns kept are still the latest.
    await answerer.ask({ sessionId: 's-1', query: 'What about side effects?', turnIndex: 1, regenerateOf: again.traceId });
    expect(traces.at(-1)!.retrievedChunks).toEqual(followUp.retrievedChunks);
    const next = 2 + later;
    await answerer.ask({ sessionId: 's-1', query: 'paracetamol tablets adults hours', turnIndex: next });
    expect(histories.at(-1)).toEqual(Array.from({ length: later }, (_, i) => `paracetamol tablets adults hours ${2 + i}`));
  });

  it('searches a follow-up that says the answer was wrong for what it asks, and one that only says so for the turn before it', async () => {
    const { answerer, traces } = setup();
    await answerer.ask({ sessionId: 's-1', query: 'refund for opened items', turnIndex: 0 });
    await answerer.ask({ sessionId: 's-1', query: "That's wrong. Which credit card do refunds for opened items go to?", turnIndex: 1 });
    await answerer.ask({ sessionId: 's-2', query: 'Which credit card do refunds for opened items go to?', turnIndex: 0 });
    expect(traces[1]!.retrievedChunks).toEqual(traces[2]!.retrievedChunks);
    expect(traces[1]!.rewrittenQuery).toBe('credit card refunds opened items go');
    await answerer.ask({ sessionId: 's-1', query: 'Are you sure?', turnIndex: 2 });
    expect(traces[3]!.rewrittenQuery).toBe('credit^0.5 card^0.5 refunds^0.5 opened^0.5 items^0.5 go^0.5');
    // The trace keeps the question as asked: the collector and the client read the pushback from it.
    expect(traces[1]!.query).toBe("That's wrong. Which credit card do refunds for opened items go to?");
  });

  it("reranks and quotes a follow-up that names nothing of its own for what it was searched with, the turn before's subject", async () => {
    const read: string[] = [];
    const recording: Reranker = {
      rerank: (query, candidates) => {
        read.push(query);
        return { ranked: [...candidates] };
      },
    };
    const { answerer, traces } = setup({ corpus: loadDocs(), reranker: recording });
    const question = 'How does the widget redact personal information?';
    for (const [i, followUp] of ['Are you sure?', '你确定吗？', "That's wrong.", 'Why?'].entries()) {
      const first = await answerer.ask({ sessionId: `s-${i}`, query: question, turnIndex: 0 });
      expect(read.at(-1)).toBe(question);
      const again = await answerer.ask({ sessionId: `s-${i}`, query: followUp, turnIndex: 1 });
      expect(traces.at(-1)!.rewrittenQuery).toBe('widget^0.5 redact^0.5 personal^0.5 information^0.5');
      // Not "sure", "else" or the pushback's words: the subject retrieval searched for.
      expect(read.at(-1)).toBe('widget redact personal information');
      // The same passages in the same order, so the same sentences quoted: an answer, which can be regenerated.
      expect(again).toMatchObject({ answered: true, answer: first.answer, citations: first.citations });
    }
  });

  it('keeps the subject through a chain of follow-ups that name nothing of their own, and hands it on at its weight to one that names something', async () => {
    const { answerer, traces } = setup({ corpus: loadDocs() });
    await answerer.ask({ sessionId: 's-1', query: 'How does the widget redact personal information?', turnIndex: 0 });
    const chain = ['Are you sure?', 'Why?', 'What else?', 'Are you sure?', 'Why?'];
    for (const [i, query] of chain.entries()) {
      const answer = await answerer.ask({ sessionId: 's-1', query, turnIndex: i + 1 });
      expect(answer.answered).toBe(true);
      expect(traces.at(-1)!.rewrittenQuery).toBe('widget^0.5 redact^0.5 personal^0.5 information^0.5');
    }
    await answerer.ask({ sessionId: 's-1', query: 'What about phone numbers?', turnIndex: chain.length + 1 });
    expect(traces.at(-1)!.rewrittenQuery).toBe('phone numbers widget^0.5 redact^0.5 personal^0.5 information^0.5');
  });

  it('finds nothing for a question naming nothing of its own without a turn before it (the demo restarted mid-chat), rather than quoting whatever says "else"', async () => {
    const { answerer, traces } = setup({ corpus: loadDocs() });
    for (const [i, query] of ['What else?', 'Are you sure?', '你确定吗？'].entries()) {
      expect(await answerer.ask({ sessionId: `s-${i}`, query, turnIndex: 3 })).toMatchObject({ answered: false, citations: [] });
      expect(traces.at(-1)!.retrievedChunks).toEqual([]);
      expect(traces.at(-1)!.rewrittenQuery).toBeUndefined();
    }
    // The question after it is searched for what it names, nothing of "else" with it.
    await answerer.ask({ sessionId: 's-0', query: 'How does the widget redact personal information?', turnIndex: 4 });
    await answerer.ask({ sessionId: 's-0', query: 'What about phone numbers?', turnIndex: 5 });
    expect(traces.at(-1)!.rewrittenQuery).toBe('phone numbers widget^0.5 redact^0.5 personal^0.5 information^0.5');
  });

  it('answers "What else?" with sentences the turn before did not quote, and its regenerate with others again', async () => {
    const { answerer, traces } = setup({ corpus: loadDocs() });
    const question = 'How does the widget redact personal information?';
    const first = await answerer.ask({ sessionId: 's-1', query: question, turnIndex: 0 });
    const more = await answerer.ask({ sessionId: 's-1', query: 'What else?', turnIndex: 1 });
    // Searched for the same subject, so the same passages: what it quotes from them is new.
    expect(traces.at(-1)!.rewrittenQuery).toBe('widget^0.5 redact^0.5 personal^0.5 information^0.5');
    expect(more.answered).toBe(true);
    const sentences = (answer: string) => answer.split(/(?<=\]) /);
    const quotedFirst = sentences(first.answer);
    expect(sentences(more.answer).filter((s) => quotedFirst.includes(s))).toEqual([]);
    const again = await answerer.ask({ sessionId: 's-1', query: 'What else?', turnIndex: 1, regenerateOf: more.traceId });
    expect(sentences(again.answer).filter((s) => quotedFirst.includes(s) || sentences(more.answer).includes(s))).toEqual([]);
    // Asked for more again, it gives back none of the answers the user has seen: not the first one's either.
    const seen = [...quotedFirst, ...sentences(more.answer), ...sentences(again.answer)];
    const evenMore = await answerer.ask({ sessionId: 's-1', query: 'What else?', turnIndex: 2 });
    expect(evenMore.answered).toBe(true);
    expect(sentences(evenMore.answer).filter((s) => seen.includes(s))).toEqual([]);
    // Asked anew in another session, the first answer's sentences come back.
    expect((await answerer.ask({ sessionId: 's-2', query: question, turnIndex: 0 })).answer).toBe(first.answer);
  });

  it('quotes again, for "Are you sure?" or "Why?", the answer of the turn before: after "What else?" or a regenerate, that answer, not the first', async () => {
    const { answerer } = setup({ corpus: loadDocs() });
    const question = 'How does the widget redact personal information?';
    const first = await answerer.ask({ sessionId: 's-1', query: question, turnIndex: 0 });
    const more = await answerer.ask({ sessionId: 's-1', query: 'What else?', turnIndex: 1 });
    expect(more.answer).not.toBe(first.answer);
    const sure = await answerer.ask({ sessionId: 's-1', query: 'Are you sure?', turnIndex: 2 });
    expect(sure).toMatchObject({ answered: true, answer: more.answer, citations: more.citations });
    expect((await answerer.ask({ sessionId: 's-1', query: 'Why?', turnIndex: 3 })).answer).toBe(more.answer);
    // Asked for more after it, it gives back neither answer seen.
    const evenMore = await answerer.ask({ sessionId: 's-1', query: 'What else?', turnIndex: 4 });
    expect([first.answer, more.answer]).not.toContain(evenMore.answer);
    // A regenerated answer is the one the user questions.
    const asked = await answerer.ask({ sessionId: 's-2', query: question, turnIndex: 0 });
    const regenerated = await answerer.ask({ sessionId: 's-2', query: question, turnIndex: 0, regenerateOf: asked.traceId });
    expect(regenerated.answer).not.toBe(first.answer);
    expect((await answerer.ask({ sessionId: 's-2', query: 'Are you sure?', turnIndex: 1 })).answer).toBe(regenerated.answer);
  });

  it('reads "Anything else?", "Tell me more, please." and "Thanks! What else?" as "What else?": the subject searched, not their words', async () => {
    const { answerer, traces } = setup({ corpus: loadDocs() });
    for (const [i, followUp] of ['Anything else?', 'Tell me more, please.', 'Thanks! What else?'].entries()) {
      const first = await answerer.ask({ sessionId: `s-${i}`, query: 'How does the widget redact personal information?', turnIndex: 0 });
      const more = await answerer.ask({ sessionId: `s-${i}`, query: followUp, turnIndex: 1 });
      expect(traces.at(-1)!.rewrittenQuery).toBe('widget^0.5 redact^0.5 personal^0.5 information^0.5');
      expect(more.answered).toBe(true);
      const quotedFirst = first.answer.split(/(?<=\]) /);
      expect(more.answer.split(/(?<=\]) /).filter((s) => quotedFirst.includes(s))).toEqual([]);
    }
  });

  it("keeps a question's personal data out of the next turn's rewrite, as the trace's query does", async () => {
    const { answerer, traces } = setup();
    await answerer.ask({ sessionId: 's-1', query: 'My email is jane.doe@example.com, refund my opened items', turnIndex: 0 });
    await answerer.ask({ sessionId: 's-1', query: 'what else?', turnIndex: 1 });
    const rewrite = traces[1]!.rewrittenQuery!;
    expect(rewrite).toContain('refund^0.5');
    expect(rewrite.split(' ')).toContain('email');
    expect(rewrite).not.toMatch(/jane|doe|example/);
    // The trace schema redacts the query itself; the rewrite needs no help.
    expect(v.parse(TraceSchema, traces[1]).rewrittenQuery).toBe(rewrite);
  });

  it('reads a follow-up with the turn before it while that answer is still being made', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first answer's ranking is held; the follow-up's is not.
    let calls = 0;
    const slow = {
      rerank: async (_q: string, c: readonly { chunk: Chunk; score: number }[]) => {
        if (calls++ === 0) await held;
        return { ranked: [...c], version: 'slow-1' };
      },
    };
    const { answerer, traces } = setup({ reranker: slow });
    const first = answerer.ask({ sessionId: 's-new', query: 'refund for opened items', turnIndex: 0 });
    await answerer.ask({ sessionId: 's-new', query: 'what else?', turnIndex: 1 });
    release();
    await first;
    expect(traces.find((t) => t.turnIndex === 1)!.rewrittenQuery).toBe('refund^0.5 opened^0.5 items^0.5');
  });

  it('answers from a document that is its title alone (a BEIR one with no text), quoting and citing it by its title', async () => {
    const claims: Corpus = {
      name: 'claims',
      chunks: [
        { chunkId: '42', sourceDocId: '42', sourceDocVersion: 'v1', title: 'Aspirin lowers the risk of colorectal cancer', text: '' },
        { chunkId: '43', sourceDocId: '43', sourceDocVersion: 'v1', title: 'Statins', text: 'Statins lower cholesterol in most adults.' },
      ],
    };
    const { answerer, traces } = setup({ corpus: claims });
    const res = await answerer.ask({ sessionId: 's-1', query: 'Does aspirin lower colorectal cancer risk?', turnIndex: 0 });
    expect(res).toMatchObject({ answer: 'Aspirin lowers the risk of colorectal cancer [1]', answered: true });
    expect(res.citations.map((c) => [c.n, c.chunkId, c.snippet])).toEqual([[1, '42', 'Aspirin lowers the risk of colorectal cancer']]);
    expect(traces[0]!.rerankedChunks?.[0]?.chunkId).toBe('42');
  });

  it('answers a question of one Chinese character from the documents holding it, quoting the sentence with it', async () => {
    const help: Corpus = {
      name: '帮助中心',
      chunks: [chunk(0, '运费按重量计算。'), chunk(1, '退款在七个工作日内到账。'), chunk(2, '商品可以在十四天内退货。')],
    };
    const { answerer } = setup({ corpus: help });
    const res = await answerer.ask({ sessionId: 's-1', query: '退', turnIndex: 0 });
    expect(res.answered).toBe(true);
    expect(res.citations.map((c) => c.chunkId).sort()).toEqual(['c1', 'c2']);
    expect(res.answer).toContain('退款在七个工作日内到账。');
  });

  it('answers and logs even when nothing is retrieved', async () => {
    const { answerer, traces } = setup();
    const res = await answerer.ask({ sessionId: 's-1', query: 'warranty', turnIndex: 0 });
    expect(res.citations).toEqual([]);
    // Nothing to answer from: the page offers no regenerate.
    expect(res.answered).toBe(false);
    expect((await answerer.ask({ sessionId: 's-2', query: 'refund?', turnIndex: 0 })).answered).toBe(true);
    expect(traces[0]!.retrievedChunks).toEqual([]);
    expect(v.safeParse(TraceSchema, traces[0]).success).toBe(true);
  });
});
