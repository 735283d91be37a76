import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK_TEXT } from '../../shared/thresholds.ts';
import type { Chunk } from '../corpus/chunk.ts';
import { generatorFromEnv, openAiGenerator } from './generate.ts';

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

/** A throwaway OpenAI-compatible endpoint on a free port: the first segment of the path picks how it answers; it keeps the bodies sent. */
const bodies: string[] = [];
const answers: Record<string, (res: ServerResponse) => void> = {
  'stalls-after-headers': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"choices":');
  },
  'html-page': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>Sign in</body></html>');
  },
  null: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('null');
  },
  'content-parts': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { content: [{ type: 'text', text: 'Hi [1]' }] } }] }));
  },
  ok: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { content: 'Fever is common [1].' } }] }));
  },
};
const llm = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c));
  req.on('end', () => {
    bodies.push(body);
    answers[req.url!.split('/')[1]!]!(res);
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(llm.address() as AddressInfo).port}`;
});
afterAll(() => {
  llm.closeAllConnections();
  return new Promise<void>((r) => llm.close(() => r()));
});

describe('openAiGenerator against an endpoint over HTTP', () => {
  const generate = (baseUrl: string, c = chunk(1, 't', 'x')) => openAiGenerator({ baseUrl, model: 'm', timeoutMs: 500 }).generate('q', [c], []);

  it('says why no answer came: an endpoint not running (by its address and cause), one that stalls after its headers, a body that is no chat completion', async () => {
    // A port just freed: nothing listens there.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(generate(`http://127.0.0.1:${port}/v1`)).rejects.toThrow(
      `m: http://127.0.0.1:${port}/v1/chat/completions cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    await expect(generate(`${base}/stalls-after-headers/v1`)).rejects.toThrow(
      `m: no answer from ${base}/stalls-after-headers/v1/chat/completions within 500 ms`,
    );
    await expect(generate(`${base}/html-page/v1`)).rejects.toThrow('m: the response is not JSON: "<html><body>Sign in</body></html>"');
    await expect(generate(`${base}/null/v1`)).rejects.toThrow('m: the response has no "choices": not a chat completion');
    await expect(generate(`${base}/content-parts/v1`)).rejects.toThrow('m: choices[0].message.content is not a string: [{"type":"text","text":"Hi [1]"}]');
  });

  it("sends each source as much of it as a trace keeps, so a long document does not overflow the model's context", async () => {
    bodies.length = 0;
    const long = chunk(1, 'Long', `${'Fever is common. '.repeat(60_000)}`);
    const { answer, prompt } = await generate(`${base}/ok/v1`, long);
    expect(answer).toBe('Fever is common [1].');
    const sent = (JSON.parse(bodies[0]!) as { messages: { content: string }[] }).messages.at(-1)!.content;
    expect(sent.length).toBeLessThan(MAX_CHUNK_TEXT + 100);
    expect(sent).toContain(`[1] ${`Long\n${long.text}`.slice(0, MAX_CHUNK_TEXT)}`);
    expect(prompt).toContain(sent);
  });
});

describe('generatorFromEnv', () => {
  it('makes a generator from both variables, none from neither, and refuses one alone or a base URL that is not http(s)', () => {
    expect(generatorFromEnv({})).toBeUndefined();
    expect(generatorFromEnv({ DEMO_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', DEMO_LLM_MODEL: 'llama3' })?.model).toBe('llama3');
    expect(() => generatorFromEnv({ DEMO_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow('DEMO_LLM_BASE_URL is set but DEMO_LLM_MODEL is not');
    expect(() => generatorFromEnv({ DEMO_LLM_MODEL: 'llama3', DEMO_LLM_API_KEY: 'k' })).toThrow('DEMO_LLM_MODEL is set but DEMO_LLM_BASE_URL is not');
    // Without its scheme, every call would fail.
    expect(() => generatorFromEnv({ DEMO_LLM_BASE_URL: 'localhost:11434/v1', DEMO_LLM_MODEL: 'llama3' })).toThrow(
      'DEMO_LLM_BASE_URL must be an http(s) URL up to the API\'s version, such as http://127.0.0.1:11434/v1, not "localhost:11434/v1"',
    );
  });
});
