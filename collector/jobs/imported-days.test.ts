import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;

/** An answer made at `createdAt` and citing `doc`, imported now. */
const imported = (createdAt: number, doc = 'old.md') =>
  trace({ createdAt, retrievedChunks: [{ chunkId: `${doc}#1`, sourceDocId: doc, score: 0.8, rank: 1, text: 'Old text.' }], rerankedChunks: undefined });

// Backfills: answers made before the raw rows' retention (90 days), arriving now. They are stored
// until 90 days after they arrived, and count for the days they were made on.
describe('answers imported with a time older than the raw rows’ retention', () => {
  const dayOf = (p: { id: string }, day: string) =>
    env.DB.prepare('select traces from day_stats where project_id = ? and day = ?').bind(p.id, day).first<{ traces: number }>();
  const documentOf = (p: { id: string }, day: string) =>
    env.DB.prepare('select sum(traces) as traces from document_days where project_id = ? and day = ? and source_doc_id = ?')
      .bind(p.id, day, 'old.md')
      .first<{ traces: number | null }>();

  it('count for their days and documents, in every import after the first night', async () => {
    const p = await newProject();
    // A night has run, and retention with it.
    await sendTraffic(p, [trace()]);
    await runNightly(env, Date.now() - DAY, { projects: [p.id] });
    const made = Date.now() - 120 * DAY;
    const day = utcDay(made);
    await sendTraffic(p, [imported(made), imported(made + 1_000)]);
    await runNightly(env, Date.now(), { projects: [p.id] });
    expect(await dayOf(p, day)).toEqual({ traces: 2 });
    expect(await documentOf(p, day)).toEqual({ traces: 2 });
    // A second import for the same day adds to it.
    await sendTraffic(p, [imported(made + 2_000)]);
    await runNightly(env, Date.now() + DAY, { projects: [p.id] });
    expect(await dayOf(p, day)).toEqual({ traces: 3 });
    expect(await documentOf(p, day)).toEqual({ traces: 3 });
  });

  it('add to what a day counted of answers retention purged since', async () => {
    const p = await newProject();
    const made = Date.now() - 100 * DAY;
    const day = utcDay(made);
    // An answer of the day that arrived that day: counted, then purged, in the first night.
    const live = imported(made);
    await sendTraffic(p, [live]);
    await env.DB.prepare('update traces set received_at = ? where project_id = ? and trace_id = ?').bind(made, p.id, live.traceId).run();
    await runNightly(env, Date.now() - DAY, { projects: [p.id] });
    expect((await env.DB.prepare('select count(*) as n from traces where project_id = ?').bind(p.id).first<{ n: number }>())!.n).toBe(0);
    expect(await dayOf(p, day)).toEqual({ traces: 1 });
    // One of the same day imported now.
    await sendTraffic(p, [imported(made + 1_000)]);
    await runNightly(env, Date.now(), { projects: [p.id] });
    expect(await dayOf(p, day)).toEqual({ traces: 2 });
    expect(await documentOf(p, day)).toEqual({ traces: 2 });
  });
});
