/**
 * Real generation, when an OpenAI-compatible chat endpoint is configured: the reranked chunks go
 * into the prompt as numbered sources and the model is asked to cite them as [n]. Without it, or
 * when the call fails, the demo answers extractively.
 */
import { causeOf } from '../../shared/cause.ts';
import { cut } from '../../shared/cut.ts';
import { MAX_CHUNK_TEXT } from '../../shared/thresholds.ts';
import { isHttpUrl, joinUrl } from '../../shared/url.ts';
import type { Chunk } from '../corpus/chunk.ts';
import { type Citation, citation, withoutCitationMarkers } from './citations.ts';

export interface Turn {
  query: string;
  answer: string;
}

export interface Generated {
  answer: string;
  /** Only the sources the answer cites, numbered as in the prompt. */
  citations: Citation[];
  /** What the model was sent, for the trace. */
  prompt: string;
}

export interface Generator {
  /** Logged on the trace as `model`. */
  model: string;
  generate(query: string, chunks: readonly Chunk[], history: readonly Turn[], options?: { regenerate?: boolean }): Promise<Generated>;
}

/** Turns of the conversation a model is sent before the question, by default. */
export const HISTORY_TURNS = 4;

export interface OpenAiOptions {
  /** Base URL up to the version, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Turns of the conversation sent before the question (default HISTORY_TURNS; a demo session keeps no more). */
  historyTurns?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const SYSTEM =
  'You answer questions using only the numbered sources given. Cite each claim with its source number in brackets, like [2]. ' +
  'If the sources do not answer the question, say so. Be brief.';

/** How much of an endpoint's refusal goes into the error: its reason, not a whole HTML page. */
const REASON_CHARS = 300;

/** What an endpoint said when it refused: OpenAI-compatible APIs send `{ error: { message } }`, others text. */
async function reasonOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  let reason = text;
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') reason = message;
  } catch {
    // Not JSON: the text as it came.
  }
  reason = reason.replace(/\s+/g, ' ').trim();
  return reason ? `: ${cut(reason, REASON_CHARS)}` : '';
}

/** What fetch threw, said as a person can act on it: fetch says only "fetch failed" (an endpoint not running, a host mistyped), its cause hidden. */
function unreachable(err: unknown, url: string, timeoutMs: number): Error {
  if (err instanceof Error && err.name === 'TimeoutError') return new Error(`no answer from ${url} within ${timeoutMs} ms`);
  return new Error(`${url} cannot be reached (${causeOf(err)})`);
}

/** The endpoint's response text, read within `timeoutMs` (an endpoint can send its headers and then stall); a refusal is said with its reason. */
async function post(doFetch: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (res.ok) return await res.text();
  } catch (err) {
    throw unreachable(err, url, timeoutMs);
  }
  throw new Error(`HTTP ${res.status}${await reasonOf(res)}`);
}

/** A chat completion's answer (`choices[0].message.content`, trimmed); a body of any other shape is said as such. */
function answerOf(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`the response is not JSON: ${JSON.stringify(cut(text.trim(), 80))}`);
  }
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) throw new Error('the response has no "choices": not a chat completion');
  const content = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content ?? '';
  if (typeof content !== 'string') throw new Error(`choices[0].message.content is not a string: ${cut(JSON.stringify(content), 80)}`);
  return content.trim();
}

export function openAiGenerator(options: OpenAiOptions): Generator {
  const { baseUrl, apiKey, model, historyTurns = HISTORY_TURNS, timeoutMs = 30_000, fetch: doFetch = fetch } = options;
  return {
    model,
    async generate(query, chunks, history, { regenerate = false } = {}) {
      // The sources' own markers unbracketed: a model echoing one would cite the wrong source. Each
      // as much of it as a trace keeps: a long document whole would overflow the model's context.
      const sources = chunks.map((c, i) => `[${i + 1}] ${withoutCitationMarkers(cut(`${c.title}\n${c.text}`, MAX_CHUNK_TEXT))}`).join('\n\n');
      const user = `Sources:\n\n${sources}\n\nQuestion: ${query}`;
      const messages = [
        { role: 'system', content: SYSTEM },
        ...history.slice(-historyTurns).flatMap((t) => [
          { role: 'user', content: t.query },
          { role: 'assistant', content: t.answer },
        ]),
        { role: 'user', content: user },
      ];
      const request = {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey && { authorization: `Bearer ${apiKey}` }) },
        // A regenerate asks for a different answer, so it samples more freely.
        body: JSON.stringify({ model, messages, temperature: regenerate ? 0.9 : 0.2 }),
      };
      const answer = await post(doFetch, joinUrl(baseUrl, 'chat/completions'), request, timeoutMs)
        .then(answerOf)
        .catch((err: Error) => {
          throw new Error(`${model}: ${err.message}`);
        });
      if (!answer) throw new Error(`${model}: empty answer`);
      const cited = new Set([...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
      const citations = chunks.flatMap((c, i) => (cited.has(i + 1) ? [citation(i + 1, c)] : []));
      return { answer, citations, prompt: `${SYSTEM}\n\n${user}` };
    },
  };
}

/**
 * A generator from `DEMO_LLM_BASE_URL`, `DEMO_LLM_MODEL` and `DEMO_LLM_API_KEY`, if the first two
 * are set. One of them alone, or a base URL that is not http(s), is refused at start: otherwise
 * every answer would be quoted (or every call fail) without a word why.
 */
export function generatorFromEnv(env: Record<string, string | undefined> = process.env): Generator | undefined {
  const baseUrl = env.DEMO_LLM_BASE_URL;
  const model = env.DEMO_LLM_MODEL;
  if (!baseUrl && !model) return undefined;
  if (!baseUrl || !model)
    throw new Error(
      `${baseUrl ? 'DEMO_LLM_BASE_URL' : 'DEMO_LLM_MODEL'} is set but ${baseUrl ? 'DEMO_LLM_MODEL' : 'DEMO_LLM_BASE_URL'} is not: give both for generated answers, or neither`,
    );
  if (!isHttpUrl(baseUrl)) {
    throw new Error(`DEMO_LLM_BASE_URL must be an http(s) URL up to the API's version, such as http://127.0.0.1:11434/v1, not ${JSON.stringify(baseUrl)}`);
  }
  return openAiGenerator({ baseUrl, model, apiKey: env.DEMO_LLM_API_KEY });
}
