/** A flag's evidence: the worst answers the days of the window kept, read for the flagged documents alone. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import { documentWindowAfter, firstListedDay, recentWindowAfter } from '../loop/documents.ts';
import { adminCall as admin, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';
import { WORST_SQL } from './stages/documents.ts';
import { UNLISTED_DAYS_SQL } from './stages/prepare.ts';

const answerFrom = (doc: string, createdAt: number, query: string): TraceInput =>
  trace({
    createdAt,
    query,
    retrievedChunks: [{ chunkId: `${doc}#1`, sourceDocId: doc, sourceDocVersion: 'v1', score: 0.9, rank: 1, text: `The text of ${doc}.` }],
    rerankedChunks: undefined,
  });

/** The UTC day `by` days after `day`. */
const dayAfter = (day: string, by = 1) => utcDay(Date.parse(`${day}T00:00:00Z`) + by * DAY_MS);

/** A thumbs-down on every stale answer, and on one fine answer in six (thumbs-up on the rest), each from a session of its own. */
const votesOn = (stale: TraceInput[], fine: TraceInput[]) => [
  ...stale.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
  ...fine.map((t, i) => ({ traceId: t.traceId, sessionId: `f-${i}`, signalType: i % 6 ? ('thumbs_up' as const) : ('thumbs_down' as const) })),
];

/** Only returns.md is flagged, with ten of the `stale` answers as its evidence. */
async function expectEvidenceFrom(p: { keys: { admin: string } }, stale: TraceInput[]) {
  const { body } = await admin<{ documents: { sourceDocId: string; evidenceTraceIds: string[] }[] }>(p, '/documents');
  expect(body.documents.map((d) => d.sourceDocId)).toEqual(['returns.md']);
  expect(body.documents[0]!.evidenceTraceIds).toHaveLength(10);
  expect(stale.map((t) => t.traceId)).toEqual(expect.arrayContaining(body.documents[0]!.evidenceTraceIds));
}

describe("a stale document's evidence", () => {
  // The SQL alone, bound as the documents stage binds it: the run's own reading is checked below.
  it('reads the lists of the days after the window’s first up to the night, none before nor after', async () => {
    const p = await newProject();
    const now = Date.now();
    const [from, night] = [documentWindowAfter(now), utcDay(now)];
    const days = [from, dayAfter(from), recentWindowAfter(now), night, dayAfter(night)];
    await env.DB.batch(
      days.map((day) =>
        env.DB.prepare(
          `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried, worst)
           values (?, 'doc.md', '["v1"]', ?, 1, 1, 1, 0, 0, json_array(json_array(-1, ?)))`,
        ).bind(p.id, day, `t-${day}`),
      ),
    );
    const { results } = await env.DB.prepare(WORST_SQL).bind(p.id, '["doc.md"]', from, night).all<{ worst: string }>();
    expect(results.map((r) => JSON.parse(r.worst)[0][1]).sort()).toEqual(days.slice(1, 4).map((day) => `t-${day}`));
  });

  it('shows the worst answers of the earlier days of the window too, not only of the recent ones', async () => {
    const p = await newProject();
    // Fifteen bad answers ten days ago, before the recent part of the window; thirty mostly good ones elsewhere.
    const tenDaysAgo = Date.now() - 10 * DAY_MS;
    const stale = Array.from({ length: 15 }, (_, i) => answerFrom('returns.md', tenDaysAgo + i * 1_000, `return question ${i}`));
    const fine = Array.from({ length: 30 }, (_, i) => answerFrom('shipping.md', tenDaysAgo + i * 1_000, `shipping question ${i}`));
    await sendTraffic(p, [...stale, ...fine], votesOn(stale, fine));
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    await expectEvidenceFrom(p, stale);
  });

  it('shows the worst answers of the window’s first day, none of the day before it', async () => {
    const p = await newProject();
    const at = Date.now() + 1_000;
    const first = firstListedDay(at);
    // The day before's answers first: their ids sort first, so were that day read they would be among the worst shown.
    const before = Array.from({ length: 15 }, (_, i) =>
      answerFrom('returns.md', Date.parse(`${dayAfter(first, -1)}T12:00:00Z`) + i * 1_000, `early return question ${i}`),
    );
    const stale = Array.from({ length: 15 }, (_, i) => answerFrom('returns.md', Date.parse(`${first}T12:00:00Z`) + i * 1_000, `return question ${i}`));
    const fine = Array.from({ length: 30 }, (_, i) => answerFrom('shipping.md', Date.parse(`${first}T12:00:00Z`) + i * 1_000, `shipping question ${i}`));
    await sendTraffic(
      p,
      before,
      before.map((t, i) => ({ traceId: t.traceId, sessionId: `e-${i}`, signalType: 'thumbs_down' as const })),
    );
    await sendTraffic(p, [...stale, ...fine], votesOn(stale, fine));
    await runNightly(env, at, { projects: [p.id] });
    await expectEvidenceFrom(p, stale);
  });
});

describe('a night before its documents are judged', () => {
  // The SQL alone, bound as the prepare stage binds it.
  it('has every day of the window without a list counted again, its first included, none before it', async () => {
    const p = await newProject();
    const now = Date.now();
    const first = firstListedDay(now);
    const days = [dayAfter(first, -1), first, dayAfter(first)];
    await env.DB.batch(
      days.map((day) =>
        env.DB.prepare(
          `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried)
           values (?, 'doc.md', '["v1"]', ?, 1, 1, 1, 0, 0)`,
        ).bind(p.id, day),
      ),
    );
    await env.DB.prepare(UNLISTED_DAYS_SQL).bind(p.id, utcDay(now), first).run();
    const { results } = await env.DB.prepare(`select key from loop_touched where project_id = ? and kind = 'day' order by key`)
      .bind(p.id)
      .all<{ key: string }>();
    expect(results.map((r) => r.key)).toEqual(days.slice(1));
  });
});
