/**
 * Real generation, when an OpenAI-compatible chat endpoint is configured: the reranked chunks go
 * into the prompt as numbered sources and the model is asked to cite them as [n]. Without it, or
 * when the call fails, the demo answers extractively.
 */
import { cut } from '../../shared/cut.ts';
import { joinUrl } from '../../shared/url.ts';
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

export function openAiGenerator(options: OpenAiOptions): Generator {
  const { baseUrl, apiKey, model, historyTurns = HISTORY_TURNS, timeoutMs = 30_000, fetch: doFetch = fetch } = options;
  return {
    model,
    async generate(query, chunks, history, { regenerate = false } = {}) {
      // The sources' own markers unbracketed: a model echoing one would cite the wrong source.
      const sources = chunks.map((c, i) => `[${i + 1}] ${withoutCitationMarkers(`${c.title}\n${c.text}`)}`).join('\n\n');
      const user = `Sources:\n\n${sources}\n\nQuestion: ${query}`;
      const messages = [
        { role: 'system', content: SYSTEM },
        ...history.slice(-historyTurns).flatMap((t) => [
          { role: 'user', content: t.query },
          { role: 'assistant', content: t.answer },
        ]),
        { role: 'user', content: user },
      ];
      const res = await doFetch(joinUrl(baseUrl, 'chat/completions'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey && { authorization: `Bearer ${apiKey}` }) },
        // A regenerate asks for a different answer, so it samples more freely.
        body: JSON.stringify({ model, messages, temperature: regenerate ? 0.9 : 0.2 }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`${model}: HTTP ${res.status}${await reasonOf(res)}`);
      const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
      const answer = body.choices?.[0]?.message?.content?.trim();
      if (!answer) throw new Error(`${model}: empty answer`);
      const cited = new Set([...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
      const citations = chunks.flatMap((c, i) => (cited.has(i + 1) ? [citation(i + 1, c)] : []));
      return { answer, citations, prompt: `${SYSTEM}\n\n${user}` };
    },
  };
}

/** A generator from `DEMO_LLM_BASE_URL`, `DEMO_LLM_MODEL` and `DEMO_LLM_API_KEY`, if the first two are set. */
export function generatorFromEnv(env: Record<string, string | undefined> = process.env): Generator | undefined {
  const baseUrl = env.DEMO_LLM_BASE_URL;
  const model = env.DEMO_LLM_MODEL;
  return baseUrl && model ? openAiGenerator({ baseUrl, model, apiKey: env.DEMO_LLM_API_KEY }) : undefined;
}
