import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedbackEventInput } from '../../shared/schema/event.ts';
import { collectorFetch, eventSink } from './http.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

/** Serves `handle` on a free port of 127.0.0.1, closed after the test; returns its origin. */
async function serve(handle: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('collectorFetch', () => {
  it('asks again when the body stalls after the headers, and returns the whole answer', async () => {
    let requests = 0;
    const origin = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      // The first answer sends its headers and part of its body, then nothing more.
      if (requests === 1) res.write('{"part');
      else res.end('{"whole":true}');
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const answer = await collectorFetch(`${origin}/v1/admin/training-data`, {}, 300);
    expect(answer).toEqual({ status: 200, ok: true, text: '{"whole":true}', attempts: 2 });
    expect(requests).toBe(2);
    expect(warn).toHaveBeenCalledWith('GET /v1/admin/training-data: no whole answer in 0.3 s; asking again');
  });
});

describe('eventSink', () => {
  /** A collector that stores events by id and answers as `POST /v1/events` does; `stall` leaves a first request unanswered after storing it. */
  function collector(stall: (request: number) => boolean): Promise<string> {
    const stored = new Set<string>();
    let requests = 0;
    return serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const { events } = JSON.parse(body) as { events: { eventId: string }[] };
        const accepted = events.filter((e) => !stored.has(e.eventId) && stored.add(e.eventId)).length;
        if (stall(++requests)) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ accepted, duplicate: events.length - accepted, rejected: 0, rateLimited: 0 }));
      });
    });
  }
  const events = (ids: string[]) => ids.map((eventId) => ({ eventId }) as FeedbackEventInput);

  it('counts a batch stored by a sending that got no answer as stored when the next sending finds it there', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const sink = eventSink(await collector((n) => n === 1), 'k', 'http://app.test', 300);
    sink.send(events(['e-1', 'e-2', 'e-3']), '203.0.113.1');
    await sink.flush();
    expect(sink.counts).toEqual({ sent: 3, stored: 3, duplicate: 0, rejected: 0 });
  });

  it('counts events answered duplicate on their first sending as duplicates, not stored', async () => {
    const sink = eventSink(await collector(() => false), 'k', 'http://app.test', 300);
    sink.send(events(['e-1', 'e-2']), '203.0.113.1');
    await sink.flush();
    sink.send(events(['e-2', 'e-3']), '203.0.113.1');
    await sink.flush();
    expect(sink.counts).toEqual({ sent: 4, stored: 3, duplicate: 1, rejected: 0 });
  });
});
