import { describe, expect, it } from 'vitest';
import { bearer, call, event, newProject, ORIGIN, projectRows, trace } from './test/fixtures.ts';

type Keys = Awaited<ReturnType<typeof newProject>>['keys'];
interface BadCase {
  name: string;
  status: number;
  field: string;
  request: (keys: Keys) => [string, RequestInit & { json?: unknown }];
}

const ev = (patch: Record<string, unknown>) => ({ ...event({ traceId: 'tr-1' }), ...patch });
const events =
  (list: unknown[]) =>
  (keys: Keys): [string, RequestInit & { json?: unknown }] => [
    '/v1/events',
    { method: 'POST', headers: { ...bearer(keys.write), origin: ORIGIN }, json: { events: list } },
  ];
const rawEvents =
  (body: BodyInit, type = 'application/json') =>
  (keys: Keys): [string, RequestInit] => ['/v1/events', { method: 'POST', headers: { ...bearer(keys.write), 'content-type': type }, body }];
const traces =
  (json: unknown) =>
  (keys: Keys): [string, RequestInit & { json?: unknown }] => ['/v1/traces', { method: 'POST', headers: bearer(keys.server), json }];
const chunk = { chunkId: 'c', sourceDocId: 'd', score: 0.5, rank: 1, text: 't' };

const cases: BadCase[] = [
  { name: 'events: body is not JSON', status: 400, field: 'body', request: rawEvents('{"events": [') },
  { name: 'events: empty body', status: 400, field: 'body', request: rawEvents('') },
  { name: 'events: invalid UTF-8', status: 400, field: 'body', request: rawEvents(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])) },
  { name: 'events: XML content type', status: 415, field: 'content-type', request: rawEvents('<events/>', 'application/xml') },
  { name: 'events: form content type', status: 415, field: 'content-type', request: rawEvents('a=1', 'application/x-www-form-urlencoded') },
  { name: 'events: body over 64 KB', status: 413, field: 'body', request: rawEvents(JSON.stringify({ events: [ev({ pad: 'x'.repeat(70_000) })] })) },
  {
    name: 'events: a bare array, no envelope',
    status: 400,
    field: 'body',
    request: (k) => ['/v1/events', { method: 'POST', headers: bearer(k.write), json: [ev({})] }],
  },
  {
    name: 'events: envelope without events',
    status: 400,
    field: 'events',
    request: (k) => ['/v1/events', { method: 'POST', headers: bearer(k.write), json: {} }],
  },
  {
    name: 'events: events is an object',
    status: 400,
    field: 'events',
    request: (k) => ['/v1/events', { method: 'POST', headers: bearer(k.write), json: { events: { a: 1 } } }],
  },
  { name: 'events: empty batch', status: 400, field: 'events', request: events([]) },
  { name: 'events: 101 events', status: 400, field: 'events', request: events(Array.from({ length: 101 }, () => ev({}))) },
  {
    name: 'events: writeKey is a number',
    status: 400,
    field: 'writeKey',
    request: (k) => ['/v1/events', { method: 'POST', headers: bearer(k.write), json: { writeKey: 5, events: [ev({})] } }],
  },
  { name: 'event: null', status: 400, field: 'events[0]', request: events([null]) },
  {
    name: 'event: invalid, with a drop report',
    status: 400,
    field: 'events[0].eventId',
    request: (k) => ['/v1/events', { method: 'POST', headers: { ...bearer(k.write), origin: ORIGIN }, json: { events: [ev({ eventId: '' })], dropped: 5 } }],
  },
  { name: 'event: no eventId', status: 400, field: 'events[0].eventId', request: events([ev({ eventId: undefined })]) },
  { name: 'event: empty eventId', status: 400, field: 'events[0].eventId', request: events([ev({ eventId: '' })]) },
  {
    name: 'event: eventId with spaces and quotes',
    status: 400,
    field: 'events[0].eventId',
    request: events([ev({ eventId: "x'; drop table feedback_events; --" })]),
  },
  { name: 'event: traceId is a number', status: 400, field: 'events[0].traceId', request: events([ev({ traceId: 42 })]) },
  {
    name: 'event: a correction with half a surrogate pair',
    status: 400,
    field: 'events[0].detail.text',
    request: events([ev({ signalType: 'correction', detail: { text: 'It is \ud83d 30 days' } })]),
  },
  { name: 'event: traceId too long', status: 400, field: 'events[0].traceId', request: events([ev({ traceId: 't'.repeat(513) })]) },
  { name: 'event: traceId with a control character', status: 400, field: 'events[0].traceId', request: events([ev({ traceId: 'tr-1\u0000' })]) },
  { name: 'event: sessionId ending in a space', status: 400, field: 'events[0].sessionId', request: events([ev({ sessionId: 's1 ' })]) },
  { name: 'event: no sessionId', status: 400, field: 'events[0].sessionId', request: events([ev({ sessionId: undefined })]) },
  { name: 'event: unknown signal type', status: 400, field: 'events[0].signalType', request: events([ev({ signalType: 'thumbs_sideways' })]) },
  { name: 'event: clientTs in seconds', status: 400, field: 'events[0].clientTs', request: events([ev({ clientTs: 1_790_000_000 })]) },
  { name: 'event: clientTs is a date string', status: 400, field: 'events[0].clientTs', request: events([ev({ clientTs: '2026-11-01T00:00:00Z' })]) },
  { name: 'event: clientTs is fractional', status: 400, field: 'events[0].clientTs', request: events([ev({ clientTs: 1_790_000_000_000.5 })]) },
  { name: 'event: widgetVersion is an object', status: 400, field: 'events[0].widgetVersion', request: events([ev({ widgetVersion: { v: 1 } })]) },
  { name: 'event: widgetVersion with a NUL', status: 400, field: 'events[0].widgetVersion', request: events([ev({ widgetVersion: '1.\u00002' })]) },
  {
    name: 'prompt_shown: trigger with an escape',
    status: 400,
    field: 'events[0].detail.trigger',
    request: events([ev({ signalType: 'prompt_shown', detail: { promptId: 'p', trigger: 'rephrase\u001b' } })]),
  },
  { name: 'rating: 6 stars', status: 400, field: 'events[0].detail.stars', request: events([ev({ signalType: 'rating', detail: { stars: 6 } })]) },
  { name: 'rating: 2.5 stars', status: 400, field: 'events[0].detail.stars', request: events([ev({ signalType: 'rating', detail: { stars: 2.5 } })]) },
  { name: 'rating: no detail', status: 400, field: 'events[0].detail', request: events([ev({ signalType: 'rating' })]) },
  {
    name: 'attribution: unknown reason',
    status: 400,
    field: 'events[0].detail.reason',
    request: events([ev({ signalType: 'attribution', detail: { reason: 'meh' } })]),
  },
  { name: 'correction: empty text', status: 400, field: 'events[0].detail.text', request: events([ev({ signalType: 'correction', detail: { text: '' } })]) },
  {
    name: 'correction: text of spaces only',
    status: 400,
    field: 'events[0].detail.text',
    request: events([ev({ signalType: 'correction', detail: { text: '  \n ' } })]),
  },
  {
    name: 'correction: text over 4000 chars',
    status: 400,
    field: 'events[0].detail.text',
    request: events([ev({ signalType: 'correction', detail: { text: 'a'.repeat(4001) } })]),
  },
  { name: 'citation_click: no chunkId', status: 400, field: 'events[0].detail.chunkId', request: events([ev({ signalType: 'citation_click', detail: {} })]) },
  {
    name: 'citation_dwell: negative ms',
    status: 400,
    field: 'events[0].detail.ms',
    request: events([ev({ signalType: 'citation_dwell', detail: { chunkId: 'c', ms: -5, mode: 'away' } })]),
  },
  {
    name: 'citation_dwell: unknown mode',
    status: 400,
    field: 'events[0].detail.mode',
    request: events([ev({ signalType: 'citation_dwell', detail: { chunkId: 'c', ms: 5, mode: 'stare' } })]),
  },
  {
    name: 'rephrase: similarity above 1',
    status: 400,
    field: 'events[0].detail.similarity',
    request: events([ev({ signalType: 'rephrase_within_session', detail: { nextTraceId: 'n', similarity: 1.5, gapMs: 10 } })]),
  },
  { name: 'event: an eventId the collector makes', status: 400, field: 'events[0].eventId', request: events([ev({ eventId: 'pushback-0123abcd' })]) },
  {
    name: 'web_vitals: unknown metric',
    status: 400,
    field: 'events[0].detail.name',
    request: events([ev({ signalType: 'web_vitals', detail: { name: 'FID', value: 3, rating: 'good' } })]),
  },
  {
    name: 'web_vitals: a duration past an hour',
    status: 400,
    field: 'events[0].detail.value',
    request: events([ev({ signalType: 'web_vitals', detail: { name: 'LCP', value: 3_600_001, rating: 'poor' } })]),
  },
  {
    name: 'web_vitals: a layout shift no page can make',
    status: 400,
    field: 'events[0].detail.value',
    request: events([ev({ signalType: 'web_vitals', detail: { name: 'CLS', value: 5_000, rating: 'poor' } })]),
  },
  {
    name: 'support_ticket: no ticket id',
    status: 400,
    field: 'events[0].detail.ticketId',
    request: events([ev({ signalType: 'support_ticket', detail: {} })]),
  },
  // A misspelt field would otherwise be dropped, and what it carried lost without a word.
  {
    name: 'events: an unknown field beside the events',
    status: 400,
    field: 'droped',
    request: (k) => ['/v1/events', { method: 'POST', headers: bearer(k.write), json: { events: [ev({})], droped: 3 } }],
  },
  { name: 'event: an unknown field', status: 400, field: 'events[0].shownAtMs', request: events([ev({ shownAtMs: 900 })]) },
  {
    name: 'event: an unknown field of a detail',
    status: 400,
    field: 'events[0].detail.starz',
    request: events([ev({ signalType: 'rating', detail: { stars: 2, starz: 2 } })]),
  },
  {
    name: 'event: a detail where its signal has none',
    status: 400,
    field: 'events[0].detail.reason',
    request: events([ev({ signalType: 'thumbs_down', detail: { reason: 'wrong' } })]),
  },
  {
    name: 'traces: body is not JSON',
    status: 400,
    field: 'body',
    request: (k) => ['/v1/traces', { method: 'POST', headers: { ...bearer(k.server), 'content-type': 'application/json' }, body: 'nope' }],
  },
  {
    name: 'traces: text/plain',
    status: 415,
    field: 'content-type',
    request: (k) => ['/v1/traces', { method: 'POST', headers: { ...bearer(k.server), 'content-type': 'text/plain' }, body: JSON.stringify(trace()) }],
  },
  { name: 'traces: empty batch', status: 400, field: 'body', request: traces([]) },
  { name: 'traces: 51 traces', status: 400, field: 'body', request: traces(Array.from({ length: 51 }, () => trace())) },
  { name: 'trace: no query', status: 400, field: 'trace.query', request: traces({ ...trace(), query: undefined }) },
  { name: 'trace: model with a NUL', status: 400, field: 'trace.model', request: traces({ ...trace(), model: 'gpt\u00004' }) },
  { name: 'trace: intent with a C1 control', status: 400, field: 'trace.intent', request: traces({ ...trace(), intent: 'refunds\u0085' }) },
  {
    name: 'trace: sourceDocVersion with a NUL',
    status: 400,
    field: 'trace.retrievedChunks[0].sourceDocVersion',
    request: traces({ ...trace(), retrievedChunks: [{ ...chunk, sourceDocVersion: 'v\u00003' }] }),
  },
  { name: 'trace: retrievedChunks is a string', status: 400, field: 'trace.retrievedChunks', request: traces({ ...trace(), retrievedChunks: 'c1,c2' }) },
  {
    name: 'trace: chunk rank 0',
    status: 400,
    field: 'trace.retrievedChunks[0].rank',
    request: traces({ ...trace(), retrievedChunks: [{ ...chunk, rank: 0 }] }),
  },
  {
    name: 'trace: chunk score is a string',
    status: 400,
    field: 'trace.retrievedChunks[0].score',
    request: traces({ ...trace(), retrievedChunks: [{ ...chunk, score: '0.9' }] }),
  },
  {
    name: 'trace: reranked chunk without sourceDocId',
    status: 400,
    field: 'trace.rerankedChunks[0].sourceDocId',
    request: traces({ ...trace(), rerankedChunks: [{ ...chunk, sourceDocId: undefined }] }),
  },
  { name: 'trace: negative createdAt', status: 400, field: 'trace.createdAt', request: traces({ ...trace(), createdAt: -1 }) },
  // Half of a surrogate pair would be stored as other characters: the id would find no row, the text not be what was sent.
  // A zero-width space, or a zero-width joiner with nothing after it, would make two ids that look alike.
  { name: 'trace: a trace id holding a zero-width space', status: 400, field: 'trace.traceId', request: traces({ ...trace(), traceId: 'tr\u200b-1' }) },
  { name: 'trace: a session id ending in a zero-width joiner', status: 400, field: 'trace.sessionId', request: traces({ ...trace(), sessionId: 's1\u200c' }) },
  { name: 'trace: a trace id with half a surrogate pair', status: 400, field: 'trace.traceId', request: traces({ ...trace(), traceId: 'tr-\ud800x' }) },
  { name: 'trace: a query with half a surrogate pair', status: 400, field: 'trace.query', request: traces({ ...trace(), query: 'refunds \udc00 window' }) },
  {
    name: "trace: a chunk's text with half a surrogate pair",
    status: 400,
    field: 'trace.retrievedChunks[0].text',
    request: traces({ ...trace(), retrievedChunks: [{ ...chunk, text: 'Opened \ud800 items' }] }),
  },
  {
    name: 'rerank: a query with half a surrogate pair',
    status: 400,
    field: 'query',
    request: (k) => ['/v1/rerank', { method: 'POST', headers: bearer(k.server), json: { query: 'refunds \ud800', chunks: [{ chunkId: 'c', text: 't' }] } }],
  },
  {
    name: "rerank: a chunk's text with half a surrogate pair",
    status: 400,
    field: 'chunks[0].text',
    request: (k) => ['/v1/rerank', { method: 'POST', headers: bearer(k.server), json: { query: 'refunds', chunks: [{ chunkId: 'c', text: 'x \udc00' }] } }],
  },
  {
    // A field the route does not take (a cut-off it would not apply) is refused, not ignored; a
    // chunk's other fields are the backend's own and pass.
    name: 'rerank: a top-level field it does not take',
    status: 400,
    field: 'topK',
    request: (k) => [
      '/v1/rerank',
      { method: 'POST', headers: bearer(k.server), json: { query: 'refunds', topK: 1, chunks: [{ chunkId: 'c', text: 't', title: 'T' }] } },
    ],
  },
  {
    name: 'admin: a query parameter named __proto__',
    status: 400,
    field: 'query.__proto__',
    request: (k) => ['/v1/admin/review?__proto__=x', { headers: bearer(k.admin) }],
  },
  // An array where an object is wanted: valibot would read it as an object without fields.
  {
    name: 'config: thresholds as an array',
    status: 400,
    field: 'thresholds',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { thresholds: [] } }],
  },
  {
    name: "config: a prompt's text as an array",
    status: 400,
    field: 'prompts[0].text',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { prompts: [{ id: 'p', trigger: 'rephrase', text: ['Hi', 'Ho'] }] } }],
  },
  { name: 'trace: retrieval as an array', status: 400, field: 'trace.retrieval', request: traces({ ...trace(), retrieval: [] }) },
  { name: 'event: detail as an array', status: 400, field: 'events[0].detail', request: events([ev({ signalType: 'thumbs_up', detail: [] })]) },
  // A URL's path drops `.` and `..`, even percent-encoded: no route could name the answer, erase its user, resolve the event.
  { name: 'trace: a trace id of ..', status: 400, field: 'trace.traceId', request: traces({ ...trace(), traceId: '..' }) },
  { name: 'trace: a user id of .', status: 400, field: 'trace.userIdHash', request: traces({ ...trace(), userIdHash: '.' }) },
  { name: 'event: an eventId of ..', status: 400, field: 'events[0].eventId', request: events([ev({ eventId: '..' })]) },

  { name: 'trace: topK is 0', status: 400, field: 'trace.retrieval.topK', request: traces({ ...trace(), retrieval: { topK: 0 } }) },
  { name: 'trace: a misspelt field', status: 400, field: 'trace.rewritenQuery', request: traces({ ...trace(), rewritenQuery: 'refund window' }) },
  {
    name: 'trace: an unknown field of a chunk',
    status: 400,
    field: 'trace.retrievedChunks[0].docVersion',
    request: traces({ ...trace(), retrievedChunks: [{ ...chunk, docVersion: 'v2' }] }),
  },
  { name: 'trace: an unknown retrieval setting', status: 400, field: 'trace.retrieval.top_k', request: traces({ ...trace(), retrieval: { top_k: 5 } }) },
  { name: 'trace in a batch: answer is null', status: 400, field: 'traces[0].answer', request: traces([{ ...trace(), answer: null }]) },
  {
    name: 'config: rating is a string',
    status: 400,
    field: 'rating',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { rating: 'yes' } }],
  },
  {
    name: 'config: similarity above 1',
    status: 400,
    field: 'thresholds.rephraseSimilarity',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { thresholds: { rephraseSimilarity: 2 } } }],
  },
  {
    name: 'config: prompt without text',
    status: 400,
    field: 'prompts[0].text',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { prompts: [{ id: 'p', trigger: 'rephrase' }] } }],
  },
  {
    name: 'config: an array, which would reset it',
    status: 400,
    field: 'body',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: [] }],
  },
  {
    name: 'config: prompt with an empty text',
    status: 400,
    field: 'prompts[0].text.en',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { prompts: [{ id: 'p', trigger: 'rephrase', text: { en: '' } }] } }],
  },
  {
    name: 'config: a text under an empty locale',
    status: 400,
    // The path ends in the key, here the empty one.
    field: 'prompts[0].text.',
    request: (k) => ['/v1/config', { method: 'PUT', headers: bearer(k.admin), json: { prompts: [{ id: 'p', trigger: 'rephrase', text: { '': 'Stuck?' } }] } }],
  },
  {
    name: 'config: two prompts with one id',
    status: 400,
    field: 'prompts[1]',
    request: (k) => [
      '/v1/config',
      {
        method: 'PUT',
        headers: bearer(k.admin),
        json: { prompts: ['rephrase', 'large_copy'].map((trigger) => ({ id: 'p', trigger, text: 'Stuck?' })) },
      },
    ],
  },
  {
    // The widget's dismiss link reports "dismissed": a choice with that id could not be told apart from it.
    name: "config: a choice with the dismiss link's id",
    status: 400,
    field: 'prompts[0].choices[1].id',
    request: (k) => [
      '/v1/config',
      {
        method: 'PUT',
        headers: bearer(k.admin),
        json: {
          prompts: [
            {
              id: 'p',
              trigger: 'rephrase',
              text: 'Found it?',
              choices: [
                { id: 'yes', label: 'Yes' },
                { id: 'dismissed', label: 'Not now' },
              ],
            },
          ],
        },
      },
    ],
  },
  {
    // An answer is reported by its choice's id: two choices with one id could not be told apart.
    name: 'config: two choices of a prompt with one id',
    status: 400,
    field: 'prompts[0].choices[1]',
    request: (k) => [
      '/v1/config',
      {
        method: 'PUT',
        headers: bearer(k.admin),
        json: {
          prompts: [
            {
              id: 'p',
              trigger: 'rephrase',
              text: 'Found it?',
              choices: [
                { id: 'yes', label: 'Yes' },
                { id: 'yes', label: 'No' },
              ],
            },
          ],
        },
      },
    ],
  },
  {
    // JSON.parse keeps "__proto__" as an ordinary key, which a record would pass over unseen.
    name: 'config: a prompt text keyed __proto__ beside a locale',
    status: 400,
    field: 'prompts[0].text',
    request: (k) => [
      '/v1/config',
      {
        method: 'PUT',
        headers: { ...bearer(k.admin), 'content-type': 'application/json' },
        body: '{"prompts":[{"id":"p","trigger":"rephrase","text":{"__proto__":"Hi","en":"Hello"}}]}',
      },
    ],
  },
  // The admin API refuses what it does not know, as ingest does, rather than dropping it unseen.
  {
    name: 'admin: a review answer with a misspelt note',
    status: 400,
    field: 'notes',
    request: (k) => ['/v1/admin/review/any-item', { method: 'POST', headers: bearer(k.admin), json: { verdict: 'relevant', notes: 'see the FAQ' } }],
  },
  {
    name: 'admin: a rollback with a misspelt reason',
    status: 400,
    field: 'reson',
    request: (k) => ['/v1/admin/models/rollback', { method: 'POST', headers: bearer(k.admin), json: { reson: 'worse answers' } }],
  },
  {
    name: 'admin: an owner rule with a field rules do not have',
    status: 400,
    field: 'owners[0].email',
    request: (k) => ['/v1/admin/owners', { method: 'PUT', headers: bearer(k.admin), json: { owners: [{ pattern: '*.md', owner: 'docs', email: 'd@x' }] } }],
  },
  {
    name: 'admin: an owner rule whose owner is only spaces',
    status: 400,
    field: 'owners[1].owner',
    request: (k) => [
      '/v1/admin/owners',
      {
        method: 'PUT',
        headers: bearer(k.admin),
        json: {
          owners: [
            { pattern: '*.md', owner: 'docs' },
            { pattern: 'faq*', owner: '   ' },
          ],
        },
      },
    ],
  },
  {
    name: 'admin: a review answer taken back with a note, which would be dropped',
    status: 400,
    field: 'note',
    request: (k) => ['/v1/admin/review/any-item', { method: 'POST', headers: bearer(k.admin), json: { verdict: null, note: 'wrong question' } }],
  },
  {
    name: 'admin: the review queue asked with a misspelt parameter',
    status: 400,
    field: 'query.stauts',
    request: (k) => ['/v1/admin/review?stauts=answered', { headers: bearer(k.admin) }],
  },
  {
    name: 'admin: worst traces asked with a misspelt parameter',
    status: 400,
    field: 'query.minSignal',
    request: (k) => ['/v1/admin/worst-traces?minSignal=5', { headers: bearer(k.admin) }],
  },
];

describe('bad input: a 4xx naming the field, and nothing written', async () => {
  // A project with rows in every table, so that a bad request that wrote, overwrote or deleted would show.
  const p = await newProject();
  const t = trace();
  await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
  await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: { rating: true } });
  const seed = [
    event({ traceId: t.traceId, signalType: 'thumbs_down' }),
    event({ traceId: t.traceId, signalType: 'correction', detail: { text: 'It is 30 days.' } }),
  ];
  await call('/v1/events', { method: 'POST', headers: bearer(p.keys.write), json: { events: seed, dropped: 3 } });
  const seeded = await projectRows(p.id);

  it('starts from a project with rows in every table', () => {
    for (const [table, rows] of Object.entries(seeded)) expect(rows.length, table).toBeGreaterThan(0);
  });

  it.each(cases)('$name → $status $field', async ({ status, field, request }) => {
    const [path, init] = request(p.keys);
    const res = await call(path, init);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { error: { code: string; message: string; field: string; fields?: { field: string; message: string }[] } };
    const { fields, ...error } = body.error;
    expect(error).toEqual({ code: expect.any(String), message: expect.any(String), field });
    // A body or query string checked names every field at fault, this one first.
    if (fields) expect(fields[0]).toEqual({ field, message: error.message });
    expect(await projectRows(p.id)).toEqual(seeded);
  });
});
