import { describe, expect, it } from 'vitest';
import type { Chunk } from '../corpus/chunk.ts';
import { openAiGenerator } from './generate.ts';

const chunk = (i: number, title: string, text: string): Chunk => ({ chunkId: `c${i}`, sourceDocId: `doc${i}`, sourceDocVersion: 'v1', title, text });

/** An endpoint that answers `answer` and keeps the messages it was sent. */
function endpoint(answer: string) {
  const sent: { role: string; content: string }[][] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)).messages);
    return Response.json({ choices: [{ message: { content: answer } }] });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

describe('openAiGenerator', () => {
  it('numbers the sources [n] and writes their own reference markers as (n), so a model echoing one cannot cite the wrong source', async () => {
    const { fetch, sent } = endpoint('Fever is common [1].');
    const generator = openAiGenerator({ baseUrl: 'http://llm.test/v1', model: 'm', fetch });
    const chunks = [chunk(1, 'Review [2]', 'Fever is common in tropical infections [1].'), chunk(2, 'Malaria', 'It causes fever [3].')];
    const { prompt, citations } = await generator.generate('fever?', chunks, []);
    const user = sent[0]!.at(-1)!.content;
    expect(user).toContain('[1] Review (2)\nFever is common in tropical infections (1).');
    expect(user).toContain('[2] Malaria\nIt causes fever (3).');
    // The instructions' example, then the two sources' numbers.
    expect([...prompt.matchAll(/\[(\d+)\]/g)].map((m) => m[0])).toEqual(['[2]', '[1]', '[2]']);
    expect(citations.map((c) => c.chunkId)).toEqual(['c1']);
  });

  it("says why the endpoint refused: an OpenAI-style error's message, or the start of its text", async () => {
    const refusing = (res: Response) => openAiGenerator({ baseUrl: 'http://llm.test/v1', model: 'm', fetch: (async () => res) as typeof fetch });
    const quota = Response.json({ error: { message: 'You exceeded your current quota.', type: 'insufficient_quota' } }, { status: 429 });
    await expect(refusing(quota).generate('q', [chunk(1, 't', 'x')], [])).rejects.toThrow('m: HTTP 429: You exceeded your current quota.');
    const page = new Response(`<html>\n<body>Bad gateway ${'.'.repeat(1_000)}</body></html>`, { status: 502 });
    const error = await refusing(page)
      .generate('q', [chunk(1, 't', 'x')], [])
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^m: HTTP 502: <html> <body>Bad gateway \.+$/);
    expect((error as Error).message.length).toBeLessThan(340);
    await expect(refusing(new Response(null, { status: 500 })).generate('q', [chunk(1, 't', 'x')], [])).rejects.toThrow(/^m: HTTP 500$/);
  });
});
