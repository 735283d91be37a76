import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import { archiveKey } from '../storage/archive-rows.ts';
import { countedR2 } from '../storage/counted-r2.ts';
import { eraseUser } from '../storage/erasure.ts';
import type { RunRow } from '../storage/loop-runs.ts';
import type { ArchiveKind } from '../storage/schema/index.ts';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { arrivedAt, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { sliceUntilDone, stageContext } from '../test/stage-context.ts';
import { runNightly } from './nightly.ts';
import { SLICE_QUERY_RESERVE } from './query-budget.ts';
import { archive, archiveWithin } from './stages/archive.ts';
import { ARCHIVE_ERASE_CALLS, archiveErasures, archiveErasuresWithin } from './stages/archive-erasures.ts';
import { retention } from './stages/retention.ts';
import type { StageContext } from './stages/stage.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** The keys of a day's pieces, in order. */
async function pieceKeys(projectId: string, kind: ArchiveKind, day: string): Promise<string[]> {
  const { objects } = await env.ARCHIVE.list({ prefix: `${projectId}/${kind}/${day}.` });
  const piece = (key: string) => Number(key.match(/\.(\d+)\.jsonl\.gz$/)?.[1] ?? 1);
  return objects.map((o) => o.key).sort((a, b) => piece(a) - piece(b));
}

/** The lines of one object, unzipped and parsed. */
async function linesOf(key: string): Promise<Record<string, unknown>[]> {
  const object = await env.ARCHIVE.get(key);
  const text = await new Response(object!.body.pipeThrough(new DecompressionStream('gzip'))).text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The lines of an archived day, its pieces' one after another; null when it has no object. */
async function archived(projectId: string, kind: ArchiveKind, day: string): Promise<Record<string, unknown>[] | null> {
  const keys = await pieceKeys(projectId, kind, day);
  if (keys.length === 0) return null;
  const lines: Record<string, unknown>[] = [];
  for (const key of keys) lines.push(...(await linesOf(key)));
  return lines;
}

const ids = (lines: Record<string, unknown>[] | null, key: 'eventId' | 'traceId') => (lines ?? []).map((l) => l[key] as string).sort();

const eventIdsOf = async (projectId: string, traceIds: readonly string[]) => {
  const { results } = await env.DB.prepare(`select event_id from feedback_events where project_id = ? and trace_id in (select value from json_each(?))`)
    .bind(projectId, JSON.stringify(traceIds))
    .all<{ event_id: string }>();
  return results.map((r) => r.event_id).sort();
};

/** An answer of `who`'s with a thumbs down on it. */
async function answer(p: Project, who = 'u-1') {
  const t = trace({ userIdHash: who, sessionId: `s-${who}` });
  await sendTraffic(p, [t], [{ traceId: t.traceId, sessionId: `s-${who}`, signalType: 'thumbs_down' }]);
  return t.traceId;
}

const archiveReport = (summary: Awaited<ReturnType<typeof runNightly>>) => summary.runs[0]!.stages.find((s) => s.name === 'archive')!;

const rowsOf = async (projectId: string) =>
  env.DB.prepare('select (select count(*) from traces where project_id = ?1) as traces, (select count(*) from feedback_events where project_id = ?1) as events')
    .bind(projectId)
    .first<{ traces: number; events: number }>();

const contextOf = (projectId: string, now: number, withArchive: boolean): StageContext =>
  stageContext(projectId, now, { bulk: { fromTraces: 10_000, share: 0.25 }, ...(withArchive ? { archive: env.ARCHIVE } : {}) });

describe('the raw rows’ archive', { timeout: 30_000 }, () => {
  it('writes each complete day of arrival of a project’s events and traces as one object each, and a day again only when it changed', async () => {
    const p = await newProject();
    const other = await newProject();
    const now = Date.now();
    const first = utcDay(now - 3 * DAY_MS);
    const second = utcDay(now - 2 * DAY_MS);
    const [a, b] = [await answer(p), await answer(p)];
    await arrivedAt(p.id, [a], Date.parse(`${first}T10:00:00Z`));
    await arrivedAt(p.id, [b], Date.parse(`${second}T10:00:00Z`));
    // Feedback on the first day's answer that arrived the next day is that day's.
    await sendTraffic(p, [], [{ traceId: a, sessionId: 's-u-1', signalType: 'thumbs_up' }]);
    await env.DB.prepare("update feedback_events set received_at = ? where project_id = ? and signal_type = 'thumbs_up'")
      .bind(Date.parse(`${second}T23:00:00Z`), p.id)
      .run();
    // Another project's answer the same day is in its own object.
    await arrivedAt(other.id, [await answer(other)], Date.parse(`${first}T11:00:00Z`));
    const night = await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(archiveReport(night).counts).toMatchObject({ written: 4, events: 3, traces: 2 });

    const firstEvents = await archived(p.id, 'events', first);
    const copy = await env.DB.prepare("select event_id from feedback_events where project_id = ? and signal_type = 'thumbs_up'")
      .bind(p.id)
      .first<{ event_id: string }>();
    expect(ids(firstEvents, 'eventId')).toEqual((await eventIdsOf(p.id, [a])).filter((id) => id !== copy!.event_id));
    expect(firstEvents!.every((e) => e.traceId === a && e.userIdHash === 'u-1' && e.signalType === 'thumbs_down')).toBe(true);
    expect(ids(await archived(p.id, 'events', second), 'eventId')).toEqual([...(await eventIdsOf(p.id, [b])), copy!.event_id].sort());
    const [firstTrace] = (await archived(p.id, 'traces', first))!;
    expect(firstTrace).toMatchObject({ traceId: a, userIdHash: 'u-1', query: 'What is the refund window for opened items?' });
    expect(firstTrace!.chunks).toEqual([
      {
        stage: 'reranked',
        rank: 1,
        chunkId: 'c1',
        sourceDocId: 'refunds.md',
        sourceDocVersion: 'v3',
        score: 0.93,
        text: 'Opened items can be returned within 14 days.',
      },
      {
        stage: 'retrieved',
        rank: 1,
        chunkId: 'c1',
        sourceDocId: 'refunds.md',
        sourceDocVersion: 'v3',
        score: 0.82,
        // Its text is the reranked row's, just before: an object holds each chunk's text once.
      },
      { stage: 'retrieved', rank: 2, chunkId: 'c2', sourceDocId: 'shipping.md', sourceDocVersion: null, score: 0.71, text: 'Shipping takes 3-5 days.' },
    ]);
    expect(ids(await archived(p.id, 'traces', second), 'traceId')).toEqual([b]);
    expect(await archived(p.id, 'traces', utcDay(now))).toBeNull();
    expect(await archived(p.id, 'events', utcDay(now - 4 * DAY_MS))).toBeNull();
    expect(await archived(other.id, 'traces', first)).toBeNull();

    // The next night finds them archived as they stand; written again, a day is the same object.
    const etag = (await env.ARCHIVE.head(archiveKey(p.id, 'events', first)))!.etag;
    expect(archiveReport(await runNightly(env, now + 1_000 + DAY_MS, { projects: [p.id] })).counts).toMatchObject({ written: 0 });
    await env.DB.prepare('update archived_days set stale = 1 where project_id = ?').bind(p.id).run();
    expect(archiveReport(await runNightly(env, now + 1_000 + 2 * DAY_MS, { projects: [p.id] })).counts).toMatchObject({ written: 4 });
    expect((await env.ARCHIVE.head(archiveKey(p.id, 'events', first)))!.etag).toBe(etag);
  });

  it('leaves the day still under way unwritten', async () => {
    const p = await newProject();
    await answer(p);
    // Read after the answer is stored: the day it arrived on is the day under way.
    const now = Date.now();
    await sliceUntilDone(archive, contextOf(p.id, now, true));
    expect(await archived(p.id, 'traces', utcDay(now))).toBeNull();
    expect(await archived(p.id, 'events', utcDay(now))).toBeNull();
  });

  it('writes a day again with rows that came late only once it is due for purge', async () => {
    const p = await newProject();
    const now = Date.now();
    // The first day retention keeps tonight: not due yet.
    const day = utcDay(now - 90 * DAY_MS);
    await arrivedAt(p.id, [await answer(p)], Date.parse(`${day}T10:00:00Z`));
    await sliceUntilDone(archive, contextOf(p.id, now, true));
    const late = await answer(p);
    await arrivedAt(p.id, [late], Date.parse(`${day}T12:00:00Z`));
    const unchanged = await archive.slice(contextOf(p.id, now, true), null);
    expect(unchanged.counts).toMatchObject({ written: 0 });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).not.toContain(late);
    // The next night it is due: written again with them before retention purges it.
    expect((await archive.slice(contextOf(p.id, now + DAY_MS, true), null)).counts).toMatchObject({ written: 2 });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toContain(late);
  });

  it('writes the first day retention kept again without an erased user’s rows, as any day it has not purged', async () => {
    const p = await newProject();
    // The first day kept is the night's, which may already be tomorrow's.
    const night = Date.now() + 1_000;
    const day = utcDay(night - 90 * DAY_MS);
    const gone = await answer(p, 'u-gone');
    const stays = await answer(p, 'u-stays');
    await arrivedAt(p.id, [gone, stays], Date.parse(`${day}T10:00:00Z`));
    // Archived; retention purged the days before it, none of its rows.
    await runNightly(env, night, { projects: [p.id] });
    expect(await rowsOf(p.id)).toEqual({ traces: 2, events: 2 });
    await eraseUser(env.DB, p.id, 'u-gone');
    await sliceUntilDone(archive, contextOf(p.id, night, true));
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([stays]);
    expect(ids(await archived(p.id, 'events', day), 'eventId')).toEqual(await eventIdsOf(p.id, [stays]));
  });

  it('lets retention purge a day only once every table of it is archived whole', async () => {
    const p = await newProject();
    const now = Date.now();
    await arrivedAt(p.id, [await answer(p)], Date.parse(`${utcDay(now - 92 * DAY_MS)}T10:00:00Z`));
    const ctx = contextOf(p.id, now, true);
    await sliceUntilDone(archive, ctx);
    // Its events archived, its traces being written again (as a writing under way or cut short leaves them)…
    await env.DB.prepare(`update archived_days set rows = -1 where project_id = ? and kind = 'traces'`).bind(p.id).run();
    await sliceUntilDone(retention, ctx);
    expect(await rowsOf(p.id)).toEqual({ traces: 1, events: 1 });
    // …or not archived at all.
    await env.DB.prepare(`delete from archived_days where project_id = ? and kind = 'traces'`).bind(p.id).run();
    await sliceUntilDone(retention, ctx);
    expect(await rowsOf(p.id)).toEqual({ traces: 1, events: 1 });
    // Archived whole again, it goes.
    await sliceUntilDone(archive, ctx);
    await sliceUntilDone(retention, ctx);
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
  });

  it('writes a chunk’s score as stored, every digit of it', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 2 * DAY_MS);
    const t = trace({
      rerankedChunks: [
        { chunkId: 'c1', sourceDocId: 'refunds.md', sourceDocVersion: 'v3', score: 0.1 + 0.2, rank: 1, text: 'Opened items can be returned within 14 days.' },
      ],
    });
    await sendTraffic(p, [t], []);
    await arrivedAt(p.id, [t.traceId], Date.parse(`${day}T10:00:00Z`));
    const stored = await env.DB.prepare("select score from trace_chunks where project_id = ? and trace_id = ? and stage = 'reranked'")
      .bind(p.id, t.traceId)
      .first<{ score: number }>();
    // More digits than the 15 SQLite writes a real in JSON with.
    expect(stored!.score).not.toBe(Number(stored!.score.toPrecision(15)));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    const [line] = (await archived(p.id, 'traces', day))!;
    expect((line!.chunks as { stage: string; score: number }[]).find((c) => c.stage === 'reranked')!.score).toBe(stored!.score);
  });

  it('writes each chunk text once an object, with the first answer citing it, and keeps it so when an erasure or late rows rewrite the object', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 95 * DAY_MS);
    const gone = await answer(p, 'u-gone');
    const stays = await answer(p, 'u-stays');
    await arrivedAt(p.id, [gone], Date.parse(`${day}T10:00:00Z`));
    await arrivedAt(p.id, [stays], Date.parse(`${day}T11:00:00Z`));
    /** Each line's chunks as stage/chunk and whether the line holds the text. */
    const texts = async () =>
      (await archived(p.id, 'traces', day))!.map((l) => ({
        traceId: l.traceId,
        chunks: (l.chunks as Record<string, unknown>[]).map((c) => `${c.stage}/${c.chunkId}${'text' in c ? `: ${c.text}` : ''}`),
      }));
    const withTexts = ['reranked/c1: Opened items can be returned within 14 days.', 'retrieved/c1', 'retrieved/c2: Shipping takes 3-5 days.'];
    const without = ['reranked/c1', 'retrieved/c1', 'retrieved/c2'];
    // Archived, then purged: the object is the only copy of the day.
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
    expect(await texts()).toEqual([
      { traceId: gone, chunks: withTexts },
      { traceId: stays, chunks: without },
    ]);
    // The answer holding the texts is erased: the next answer citing them holds them.
    await eraseUser(env.DB, p.id, 'u-gone');
    await runNightly(env, now + 1_000 + DAY_MS, { projects: [p.id] });
    expect(await texts()).toEqual([{ traceId: stays, chunks: withTexts }]);
    // An answer that came late, earlier in the day, holds them now.
    const late = await answer(p, 'u-late');
    await arrivedAt(p.id, [late], Date.parse(`${day}T09:00:00Z`));
    await runNightly(env, now + 1_000 + 2 * DAY_MS, { projects: [p.id] });
    expect(await texts()).toEqual([
      { traceId: late, chunks: withTexts },
      { traceId: stays, chunks: without },
    ]);
  });

  it('lets retention purge a day’s raw rows only once the day is archived as it stands', async () => {
    const p = await newProject();
    const now = Date.now();
    const older = utcDay(now - 92 * DAY_MS);
    const old = utcDay(now - 91 * DAY_MS);
    const [a, b] = [await answer(p), await answer(p)];
    await arrivedAt(p.id, [a], Date.parse(`${older}T10:00:00Z`));
    await arrivedAt(p.id, [b], Date.parse(`${old}T10:00:00Z`));
    const ctx = contextOf(p.id, now, true);
    // Neither day archived yet: both past retention, both kept.
    await sliceUntilDone(retention, ctx);
    expect(await rowsOf(p.id)).toEqual({ traces: 2, events: 2 });
    await sliceUntilDone(archive, ctx);
    // One day left stale, as an erasure that came between would leave it: only the other goes.
    await env.DB.prepare('update archived_days set stale = 1 where project_id = ? and day = ?').bind(p.id, old).run();
    await sliceUntilDone(retention, ctx);
    expect(await rowsOf(p.id)).toEqual({ traces: 1, events: 1 });
    expect(ids(await archived(p.id, 'traces', older), 'traceId')).toEqual([a]);
  });

  it('without the ARCHIVE binding, reports it skipped and lets retention purge as before', async () => {
    const p = await newProject();
    const now = Date.now();
    await arrivedAt(p.id, [await answer(p)], now - 91 * DAY_MS);
    const ctx = contextOf(p.id, now, false);
    expect(await archive.slice(ctx, null)).toEqual({ cursor: null, counts: { skipped: 1 }, note: expect.stringContaining('no ARCHIVE binding') });
    await sliceUntilDone(retention, ctx);
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
    expect((await env.ARCHIVE.list({ prefix: `${p.id}/` })).objects).toEqual([]);
  });

  it('writes a day again with the rows that came late before retention purges it', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 10 * DAY_MS);
    await arrivedAt(p.id, [await answer(p)], Date.parse(`${day}T10:00:00Z`));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect((await archived(p.id, 'events', day))!.length).toBe(1);
    // An answer stored with that day's arrival after the day was archived (a write queued across midnight).
    const late = await answer(p);
    await arrivedAt(p.id, [late], Date.parse(`${day}T23:59:59Z`));
    // The night the day is past retention: archived again with it, then purged.
    const night = await runNightly(env, now + 1_000 + 82 * DAY_MS, { projects: [p.id] });
    expect(archiveReport(night).counts).toMatchObject({ written: 2 });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toContain(late);
    expect((await archived(p.id, 'events', day))!.length).toBe(2);
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
  });

  it('writes the days an erasure touched again without the erased user’s rows', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 5 * DAY_MS);
    const gone = await answer(p, 'u-gone');
    const stays = await answer(p, 'u-stays');
    await arrivedAt(p.id, [gone, stays], Date.parse(`${day}T10:00:00Z`));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([gone, stays].sort());
    const staysEvents = await eventIdsOf(p.id, [stays]);
    await eraseUser(env.DB, p.id, 'u-gone');
    await runNightly(env, now + 1_000 + DAY_MS, { projects: [p.id] });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([stays]);
    expect(ids(await archived(p.id, 'events', day), 'eventId')).toEqual(staysEvents);
  });

  it('takes an erased user’s lines out of the objects of days retention purged, keeping the others’', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 95 * DAY_MS);
    const gone = await answer(p, 'u-gone');
    const stays = await answer(p, 'u-stays');
    const staysEvents = await eventIdsOf(p.id, [stays]);
    await arrivedAt(p.id, [gone, stays], Date.parse(`${day}T10:00:00Z`));
    // Archived, then purged, in one night: the objects are all that is left of the day.
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([gone, stays].sort());
    await eraseUser(env.DB, p.id, 'u-gone');
    const night = await runNightly(env, now + 1_000 + DAY_MS, { projects: [p.id] });
    expect(night.runs[0]!.stages.find((s) => s.name === 'archive-erasures')!.counts).toMatchObject({ objects: 2, lines: 2, users: 1 });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([stays]);
    expect(ids(await archived(p.id, 'events', day), 'eventId')).toEqual(staysEvents);
  });

  it('takes out of purged days the lines of a user whose id JSON writes escaped (a backslash, a quote)', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 95 * DAY_MS);
    const users = ['CORP\\jdoe', 'say "hi"'];
    const gone = [await answer(p, users[0]), await answer(p, users[1])];
    const stays = await answer(p, 'u-stays');
    const staysEvents = await eventIdsOf(p.id, [stays]);
    await arrivedAt(p.id, [...gone, stays], Date.parse(`${day}T10:00:00Z`));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([...gone, stays].sort());
    for (const user of users) await eraseUser(env.DB, p.id, user);
    await runNightly(env, now + 1_000 + DAY_MS, { projects: [p.id] });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([stays]);
    expect(ids(await archived(p.id, 'events', day), 'eventId')).toEqual(staysEvents);
  });

  it('adds rows that came late into a day retention purged to its object, keeping what it held', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 95 * DAY_MS);
    const first = await answer(p);
    await arrivedAt(p.id, [first], Date.parse(`${day}T10:00:00Z`));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
    // Stored with that day's arrival after the day was purged (an import of old traffic).
    const late = await answer(p);
    await arrivedAt(p.id, [late], Date.parse(`${day}T12:00:00Z`));
    await runNightly(env, now + 1_000 + DAY_MS, { projects: [p.id] });
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([first, late].sort());
    expect((await archived(p.id, 'events', day))!.map((e) => e.traceId)).toEqual([first, late]);
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
  });

  it('archives a month of backlog in slices that each stay within a slice’s D1 queries and R2 calls', async () => {
    const p = await newProject();
    const now = Date.now();
    const days = Array.from({ length: 31 }, (_, i) => utcDay(now - (31 - i) * DAY_MS));
    for (const day of days) await arrivedAt(p.id, [await answer(p)], Date.parse(`${day}T10:00:00Z`));
    const { db, queries } = countedD1(env.DB);
    const r2 = countedR2(env.ARCHIVE);
    const ctx = { ...contextOf(p.id, now, true), db, archive: r2.bucket };
    const calls = () => queries() + r2.calls();
    const perSlice: number[] = [];
    let cursor: string | null = null;
    do {
      const before = calls();
      cursor = (await archive.slice(ctx, cursor)).cursor;
      perSlice.push(calls() - before);
    } while (cursor !== null && perSlice.length < 100);
    expect(perSlice.length).toBeGreaterThan(1);
    expect(Math.max(...perSlice)).toBeLessThanOrEqual(SLICE_QUERY_RESERVE);
    const { objects } = await env.ARCHIVE.list({ prefix: `${p.id}/` });
    expect(objects.map((o) => o.key).sort()).toEqual(days.flatMap((d) => [archiveKey(p.id, 'events', d), archiveKey(p.id, 'traces', d)]).sort());
  });

  it('takes an erased user out of forty purged days in slices that each stay within a slice’s D1 queries and R2 calls', async () => {
    const p = await newProject();
    const now = Date.now();
    const days = Array.from({ length: 40 }, (_, i) => utcDay(now - (140 - i) * DAY_MS));
    for (const day of days) await arrivedAt(p.id, [await answer(p, 'u-gone')], Date.parse(`${day}T10:00:00Z`));
    const stays = await answer(p, 'u-stays');
    await arrivedAt(p.id, [stays], Date.parse(`${days[0]}T11:00:00Z`));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
    await eraseUser(env.DB, p.id, 'u-gone');
    const { db, queries } = countedD1(env.DB);
    const r2 = countedR2(env.ARCHIVE);
    const ctx = { ...contextOf(p.id, now + DAY_MS, true), db, archive: r2.bucket, run: { startedAt: now + DAY_MS } as RunRow };
    const calls = () => queries() + r2.calls();
    const perSlice: number[] = [];
    let cursor: string | null = null;
    do {
      const before = calls();
      cursor = (await archiveErasures.slice(ctx, cursor)).cursor;
      perSlice.push(calls() - before);
    } while (cursor !== null && perSlice.length < 100);
    expect(perSlice.length).toBeGreaterThan(1);
    expect(Math.max(...perSlice)).toBeLessThanOrEqual(SLICE_QUERY_RESERVE);
    expect(ids(await archived(p.id, 'traces', days[0]!), 'traceId')).toEqual([stays]);
    for (const day of days.slice(1)) expect(await archived(p.id, 'traces', day)).toBeNull();
  });

  it('starts a slice of erasures on no more objects once it has read its bytes', async () => {
    const p = await newProject();
    const now = Date.now();
    const days = Array.from({ length: 4 }, (_, i) => utcDay(now - (140 - i) * DAY_MS));
    for (const day of days) await arrivedAt(p.id, [await answer(p, 'u-gone')], Date.parse(`${day}T10:00:00Z`));
    await runNightly(env, now + 1_000, { projects: [p.id] });
    await eraseUser(env.DB, p.id, 'u-gone');
    const ctx = { ...contextOf(p.id, now + DAY_MS, true), run: { startedAt: now + DAY_MS } as RunRow };
    // One byte: every object read fills a slice, the events' and the traces' of each day.
    const stage = archiveErasuresWithin({ calls: ARCHIVE_ERASE_CALLS, bytes: 1 });
    const objectsPerSlice: number[] = [];
    let cursor: string | null = null;
    do {
      const slice = await stage.slice(ctx, cursor);
      objectsPerSlice.push(slice.counts.objects ?? 0);
      cursor = slice.cursor;
    } while (cursor !== null && objectsPerSlice.length < 100);
    expect(objectsPerSlice).toEqual(days.flatMap(() => [1, 1]));
    for (const day of days) expect(await archived(p.id, 'traces', day)).toBeNull();
  });

  describe('a day of more rows than a piece holds', () => {
    // One row a page, and a piece of 8 page reads: 8 events or 4 traces (two queries a page).
    const small = archiveWithin({ pageRows: { events: 1, traces: 1 }, pieceReadQueries: 8 });

    /** Thirty answers of `who`'s (one in three of 'u-gone' when `some` erased), arrived a minute apart on `day`. */
    async function busyDay(p: Project, day: string, someGone = false) {
      const traceIds: string[] = [];
      for (let i = 0; i < 30; i++) {
        const id = await answer(p, someGone && i % 3 === 0 ? 'u-gone' : 'u-1');
        await arrivedAt(p.id, [id], Date.parse(`${day}T10:00:00Z`) + i * 60_000);
        traceIds.push(id);
      }
      return traceIds;
    }

    const recordOf = (projectId: string, kind: ArchiveKind, day: string) =>
      env.DB.prepare('select rows, pieces, stale from archived_days where project_id = ? and kind = ? and day = ?').bind(projectId, kind, day).first();

    async function slices(stage: typeof archive, ctx: StageContext) {
      const { db, queries } = countedD1(env.DB);
      const r2 = countedR2(ctx.archive!);
      const counted = { ...ctx, db, archive: r2.bucket };
      const perSlice: number[] = [];
      let cursor: string | null = null;
      do {
        const before = queries() + r2.calls();
        cursor = (await stage.slice(counted, cursor)).cursor;
        perSlice.push(queries() + r2.calls() - before);
      } while (cursor !== null && perSlice.length < 100);
      return perSlice;
    }

    it('writes it in pieces, in order of arrival, going on in the next slice with the piece after the last it wrote', async () => {
      const p = await newProject();
      const now = Date.now();
      const day = utcDay(now - 3 * DAY_MS);
      const traceIds = await busyDay(p, day);
      const perSlice = await slices(small, contextOf(p.id, now, true));
      expect(perSlice.length).toBeGreaterThan(2);
      expect(Math.max(...perSlice)).toBeLessThanOrEqual(SLICE_QUERY_RESERVE);
      expect(await pieceKeys(p.id, 'events', day)).toEqual([1, 2, 3, 4].map((n) => archiveKey(p.id, 'events', day, n)));
      expect(await pieceKeys(p.id, 'traces', day)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => archiveKey(p.id, 'traces', day, n)));
      expect(archiveKey(p.id, 'traces', day, 2)).toBe(`${p.id}/traces/${day}.2.jsonl.gz`);
      // Every row once, in order of arrival across the pieces.
      expect((await archived(p.id, 'traces', day))!.map((t) => t.traceId)).toEqual(traceIds);
      expect((await archived(p.id, 'events', day))!.map((e) => e.traceId)).toEqual(traceIds);
      // Each piece stands alone: the first answer of each gives the texts it cites.
      for (const key of await pieceKeys(p.id, 'traces', day)) {
        const [first] = await linesOf(key);
        expect((first!.chunks as { text?: string }[]).filter((c) => c.text).length, key).toBe(2);
      }
      expect(await recordOf(p.id, 'events', day)).toEqual({ rows: 30, pieces: 4, stale: 0 });
      expect(await recordOf(p.id, 'traces', day)).toEqual({ rows: 30, pieces: 8, stale: 0 });
      // Archived as it stands: retention may purge it.
      await sliceUntilDone(retention, contextOf(p.id, now + 90 * DAY_MS, true));
      expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
      expect((await archived(p.id, 'traces', day))!.map((t) => t.traceId)).toEqual(traceIds);
    });

    it('holds it back from retention while only some of its pieces are written', async () => {
      const p = await newProject();
      const now = Date.now();
      const day = utcDay(now - 3 * DAY_MS);
      await busyDay(p, day);
      const ctx = contextOf(p.id, now, true);
      const first = await small.slice(ctx, null);
      expect(first.cursor).toMatch(/^\{/);
      expect(await recordOf(p.id, 'events', day)).toMatchObject({ rows: -1 });
      await sliceUntilDone(retention, contextOf(p.id, now + 90 * DAY_MS, true));
      expect(await rowsOf(p.id)).toEqual({ traces: 30, events: 30 });
    });

    it('writes it again in fewer pieces after an erasure, deleting those beyond its last', async () => {
      const p = await newProject();
      const now = Date.now();
      const day = utcDay(now - 3 * DAY_MS);
      const traceIds = await busyDay(p, day, true);
      await slices(small, contextOf(p.id, now, true));
      expect(await pieceKeys(p.id, 'traces', day)).toHaveLength(8);
      await eraseUser(env.DB, p.id, 'u-gone');
      await slices(small, contextOf(p.id, now + DAY_MS, true));
      const left = traceIds.filter((_, i) => i % 3 !== 0);
      expect((await archived(p.id, 'traces', day))!.map((t) => t.traceId)).toEqual(left);
      expect(await pieceKeys(p.id, 'traces', day)).toEqual([1, 2, 3, 4, 5].map((n) => archiveKey(p.id, 'traces', day, n)));
      expect(await pieceKeys(p.id, 'events', day)).toEqual([1, 2, 3].map((n) => archiveKey(p.id, 'events', day, n)));
      expect(await recordOf(p.id, 'traces', day)).toEqual({ rows: 20, pieces: 5, stale: 0 });
    });

    it('leaves no piece of a writing cut short behind when the day is written again with fewer', async () => {
      const p = await newProject();
      const now = Date.now();
      const day = utcDay(now - 3 * DAY_MS);
      const traceIds = await busyDay(p, day, true);
      // A night's writing gets through some pieces; the next night's starts over on fewer rows.
      let cursor: string | null = null;
      while ((await pieceKeys(p.id, 'traces', day)).length < 6) cursor = (await small.slice(contextOf(p.id, now, true), cursor)).cursor;
      expect(cursor).not.toBeNull();
      await eraseUser(env.DB, p.id, 'u-gone');
      await slices(small, contextOf(p.id, now + DAY_MS, true));
      expect((await archived(p.id, 'traces', day))!.map((t) => t.traceId)).toEqual(traceIds.filter((_, i) => i % 3 !== 0));
      expect(await pieceKeys(p.id, 'traces', day)).toHaveLength(5);
    });

    /** Retention's slices, and what they purged recorded as a night's run records it. */
    async function purge(projectId: string, now: number) {
      let cursor: string | null = null;
      let state: Record<string, unknown> = {};
      do {
        const slice = await retention.slice(contextOf(projectId, now, true), cursor);
        cursor = slice.cursor;
        state = { ...state, ...slice.state };
      } while (cursor !== null);
      await env.DB.prepare(
        `insert into loop_runs (project_id, night, status, stage, cursor, window_from, window_to, state, stages, started_at)
         values (?, ?, 'done', 0, null, 0, ?, ?, '[]', ?)`,
      )
        .bind(projectId, utcDay(now), now, JSON.stringify(state), now)
        .run();
    }

    it('takes an erased user out of every piece of a day retention purged, and adds rows that came late to its last', async () => {
      const p = await newProject();
      const now = Date.now();
      const day = utcDay(now - 95 * DAY_MS);
      const traceIds = await busyDay(p, day, true);
      await slices(small, contextOf(p.id, now, true));
      await purge(p.id, now);
      expect(await rowsOf(p.id)).toEqual({ traces: 0, events: 0 });
      await eraseUser(env.DB, p.id, 'u-gone');
      const ctx = { ...contextOf(p.id, now + DAY_MS, true), run: { startedAt: now + DAY_MS } as RunRow };
      let erasing: string | null = null;
      let objects = 0;
      do {
        const slice = await archiveErasures.slice(ctx, erasing);
        objects += slice.counts.objects ?? 0;
        erasing = slice.cursor;
      } while (erasing !== null);
      // Every piece that held one of the erased user's answers (one in three), or an event about it:
      // all four of events, and all eight of traces but the last (answers 28 and 29).
      expect(objects).toBe(4 + 7);
      const left = traceIds.filter((_, i) => i % 3 !== 0);
      expect((await archived(p.id, 'traces', day))!.map((t) => t.traceId)).toEqual(left);
      expect((await archived(p.id, 'events', day))!.map((e) => e.traceId)).toEqual(left);
      expect(await recordOf(p.id, 'traces', day)).toMatchObject({ rows: 20, pieces: 8 });
      // An answer stored with that day's arrival after it was purged joins the last piece.
      const late = await answer(p);
      await arrivedAt(p.id, [late], Date.parse(`${day}T23:00:00Z`));
      await slices(small, contextOf(p.id, now + 2 * DAY_MS, true));
      expect((await archived(p.id, 'traces', day))!.map((t) => t.traceId)).toEqual([...left, late]);
      expect(await pieceKeys(p.id, 'traces', day)).toHaveLength(8);
      expect(await recordOf(p.id, 'traces', day)).toEqual({ rows: 21, pieces: 8, stale: 0 });
    });
  });

  it('writes a day again when an erasure lands while the day is being written', async () => {
    const p = await newProject();
    const now = Date.now();
    const day = utcDay(now - 5 * DAY_MS);
    const gone = await answer(p, 'u-gone');
    const stays = await answer(p, 'u-stays');
    const staysEvents = await eventIdsOf(p.id, [stays]);
    await arrivedAt(p.id, [gone, stays], Date.parse(`${day}T10:00:00Z`));
    // The user is erased after the day's events were read, before their object is stored.
    let erased = false;
    const racing = new Proxy(env.ARCHIVE, {
      get(target, prop) {
        if (prop !== 'put') return Reflect.get(target, prop).bind(target);
        return async (...args: Parameters<R2Bucket['put']>) => {
          if (!erased) {
            erased = true;
            await eraseUser(env.DB, p.id, 'u-gone');
          }
          return target.put(...args);
        };
      },
    });
    await sliceUntilDone(archive, { ...contextOf(p.id, now, true), archive: racing });
    expect(erased).toBe(true);
    await sliceUntilDone(archive, contextOf(p.id, now, true));
    expect(ids(await archived(p.id, 'events', day), 'eventId')).toEqual(staysEvents);
    expect(ids(await archived(p.id, 'traces', day), 'traceId')).toEqual([stays]);
  });
});
