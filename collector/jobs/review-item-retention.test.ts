import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { queryKey } from '../../shared/terms.ts';
import { adminCall as admin, newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { answeredItem, trainedModel } from '../test/review-items.ts';
import { runNightly } from './nightly.ts';
import { PURGE_BATCH, retention } from './stages/retention.ts';
import type { StageContext } from './stages/stage.ts';

const DAY = 86_400_000;

/** Moves stored traces and their events back to `at`, as if they had arrived then. */
async function arrivedAt(projectId: string, traces: readonly TraceInput[], at: number) {
  for (const { traceId } of traces) {
    await env.DB.prepare('update traces set created_at = ?1, received_at = ?1 where project_id = ?2 and trace_id = ?3').bind(at, projectId, traceId).run();
    await env.DB.prepare('update feedback_events set client_ts = ?1, received_at = ?1 where project_id = ?2 and trace_id = ?3')
      .bind(at, projectId, traceId)
      .run();
  }
}

const itemsOf = async (projectId: string, query: string) =>
  (
    await env.DB.prepare('select item_id, status from review_items where project_id = ? and query_key = ? order by item_id')
      .bind(projectId, queryKey(query))
      .all<{ item_id: string; status: string }>()
  ).results;

const rowsOf = async (projectId: string, itemIds: readonly string[]) =>
  (
    await env.DB.prepare('select item_id, trace_id from review_item_traces where project_id = ? and item_id in (select value from json_each(?)) order by 1, 2')
      .bind(projectId, JSON.stringify(itemIds))
      .all<{ item_id: string; trace_id: string }>()
  ).results;

const retentionCounts = (summary: Awaited<ReturnType<typeof runNightly>>) => summary.runs[0]!.stages.find((s) => s.name === 'retention')!.counts;

describe('review items past their retention', () => {
  it('takes an item waiting for review, with its rows, at the run that purges its last answer, and keeps one with an answer still stored', async () => {
    const p = await newProject();
    const lone = trace({ query: 'Can I return a blender I used once?', sessionId: 's-lone' });
    const shared = 'How long does a refund take to arrive?';
    const early = trace({ query: shared, sessionId: 's-early' });
    const late = trace({ query: shared, sessionId: 's-late' });
    await sendTraffic(
      p,
      [lone, early, late],
      [lone, early, late].map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_down' as const })),
    );
    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
    const waiting = await itemsOf(p.id, lone.query);
    const sharedItems = await itemsOf(p.id, shared);
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((i) => i.status !== 'answered')).toBe(true);
    expect(
      (
        await rowsOf(
          p.id,
          sharedItems.map((i) => i.item_id),
        )
      ).map((r) => r.trace_id),
    ).toContain(early.traceId);

    // The lone question's answer and one of the shared question's two pass the raw rows' retention.
    await arrivedAt(p.id, [lone, early], Date.now() - 91 * DAY);
    const summary = await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(summary.done).toBe(true);
    expect(await env.DB.prepare('select trace_id from traces where project_id = ?').bind(p.id).all()).toMatchObject({ results: [{ trace_id: late.traceId }] });
    expect(await itemsOf(p.id, lone.query)).toEqual([]);
    expect(
      await rowsOf(
        p.id,
        waiting.map((i) => i.item_id),
      ),
    ).toEqual([]);
    expect(retentionCounts(summary).reviewItems).toBe(waiting.length);
    // The shared question still has an answer to review it by: its items wait, with what raised them.
    expect(await itemsOf(p.id, shared)).toEqual(sharedItems);
    expect(
      (
        await rowsOf(
          p.id,
          sharedItems.map((i) => i.item_id),
        )
      ).map((r) => r.trace_id),
    ).toContain(late.traceId);
    // Once that one goes too, so do they.
    await arrivedAt(p.id, [late], Date.now() - 91 * DAY);
    expect(retentionCounts(await runNightly(env, nightsAfterNow(2), { projects: [p.id] })).reviewItems).toBe(sharedItems.length);
    expect(await env.DB.prepare('select count(*) as n from review_items where project_id = ?').bind(p.id).first()).toEqual({ n: 0 });
    expect(await env.DB.prepare('select count(*) as n from review_item_traces where project_id = ?').bind(p.id).first()).toEqual({ n: 0 });
  });

  it('keeps an answered item past its answers until it was answered longer ago than the aggregates are kept, and training counts what is left', async () => {
    const p = await newProject();
    // The first night's moment: every age is counted from it, so the nights after keep them whatever the hour.
    const night = Date.now() + 1_000;
    const row = (n: number) =>
      env.DB.prepare(
        `insert into review_item_traces (project_id, item_id, trace_id, candidate, weight, evidence, rank, score, guess, guess_why, mined_at)
         values (?, ?, ?, 'negative', 1, '[]', 1, 0.5, 'unclear', '', ?)`,
      ).bind(p.id, `item-${n}`, `purged-trace-${n}`, night - 800 * DAY);
    // Two examples, their answers long purged; a model trained on both a week ago, served.
    await env.DB.batch([
      answeredItem(p.id, 1, 'relevant', night - 731 * DAY),
      answeredItem(p.id, 2, 'not_relevant', night - 729 * DAY),
      row(1),
      row(2),
      trainedModel(p.id, 'm1', night - 8 * DAY, 2, 'promoted'),
      env.DB.prepare(`insert into model_rollouts (project_id, seq, at, action, version, reason) values (?, 1, ?, 'promote', 'm1', 'test')`).bind(
        p.id,
        night - 8 * DAY,
      ),
    ]);
    const summary = await runNightly(env, night, { projects: [p.id] });
    expect(summary.done).toBe(true);
    expect(retentionCounts(summary).reviewItems).toBe(1);
    const left = await env.DB.prepare('select item_id from review_items where project_id = ?').bind(p.id).all();
    expect(left.results).toEqual([{ item_id: 'item-2' }]);
    expect(await rowsOf(p.id, ['item-1', 'item-2'])).toEqual([{ item_id: 'item-2', trace_id: 'purged-trace-2' }]);
    // Training counts the example left; the one that went is nothing new to retrain on, and the model keeps it.
    expect(summary.runs[0]!.stages.find((s) => s.name === 'train')!.counts).toEqual({ nothingNew: 1 });
    const review = await admin<{ training: Record<string, unknown> }>(p, '/review?status=answered');
    expect(review.body.training).toMatchObject({ confirmed: 1, examples: 1, trainedOn: 2, ready: false });
    const health = await admin<{ latest: { metrics: Record<string, number | null> } }>(p, '/health');
    expect(health.body.latest.metrics).toMatchObject({ confirmedExamples: 2, loopClosureRate: 1 });
    // The next night's snapshot counts what is left.
    await runNightly(env, night + DAY, { projects: [p.id] });
    const next = await admin<{ latest: { metrics: Record<string, number | null> } }>(p, '/health');
    expect(next.body.latest.metrics).toMatchObject({ confirmedExamples: 1, loopClosureRate: 1 });
    // Its verdict taken back, the item left has nothing to be reviewed by: it goes at the next run.
    expect((await admin(p, '/review/item-2', { method: 'POST', json: { verdict: null } })).status).toBe(200);
    expect(retentionCounts(await runNightly(env, night + 2 * DAY, { projects: [p.id] })).reviewItems).toBe(1);
    expect(await rowsOf(p.id, ['item-2'])).toEqual([]);
  });

  it("looks for waiting items left without answers once the raw rows' purge is done, not in each of its slices", async () => {
    const p = await newProject();
    const old = trace({ query: 'Can I return a blender I used once?' });
    await sendTraffic(p, [old], []);
    await arrivedAt(p.id, [old], Date.now() - 91 * DAY);
    await heldItems().bind(p.id, 1).run();
    await listedAsMigrated(p.id);
    const now = Date.now();
    const ctx = { db: env.DB, projectId: p.id, night: new Date(now).toISOString().slice(0, 10), now, purgeNow: now, settings: DEFAULT_LOOP_SETTINGS };
    // Finding them looks up every item waiting: a day's purge takes dozens of slices at volume.
    const purging = await retention.slice(ctx as unknown as StageContext, null);
    expect(purging).toMatchObject({ cursor: 'more', counts: { traces: 1, reviewItems: 0 } });
    const after = await retention.slice(ctx as unknown as StageContext, purging.cursor);
    expect(after).toMatchObject({ cursor: null, counts: { traces: 0, reviewItems: 1 } });
  });

  it('takes more items than one statement deletes in the slices after the first', async () => {
    const p = await newProject();
    const n = PURGE_BATCH + 1;
    await heldItems().bind(p.id, n).run();
    await listedAsMigrated(p.id);
    const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(summary.done).toBe(true);
    expect(retentionCounts(summary).reviewItems).toBe(n);
    expect(await env.DB.prepare('select count(*) as n from review_items where project_id = ?').bind(p.id).first()).toEqual({ n: 0 });
  });
});

/** Held items (?2 of them, for project ?1) with no answer stored, as retention before this one left them. */
const heldItems = () =>
  env.DB.prepare(
    `with recursive n(value) as (select 1 union all select value + 1 from n where value < ?2)
       insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
         evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
       select ?1, 'item-' || value, 'key-' || value, 'question ' || value, 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 1, 1, 'held', 0, 0
       from n`,
  );

/** Lists every waiting item for retention to look at, as the migration that began the list did for items waiting then. */
const listedAsMigrated = (projectId: string) =>
  env.DB.prepare(
    `insert or ignore into review_item_checks (project_id, item_id) select project_id, item_id from review_items where project_id = ? and status in ('pending', 'held')`,
  )
    .bind(projectId)
    .run();
