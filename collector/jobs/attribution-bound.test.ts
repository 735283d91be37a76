/** A session regenerated without end: the nightly job reads a bounded stretch of it, and attribution looks no further. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_MAX_ANSWERS } from '../loop/attribution.ts';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { hookedD1 } from '../test/hooked-d1.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;

/** env.DB, noting how many turns each read of the conversation around a slice's traces answered. */
function watchingTurnReads() {
  const reads: number[] = [];
  const db = hookedD1(env.DB, async ({ batch }, run) => {
    const answered = await run();
    if (batch)
      for (const r of answered as unknown as D1Result[]) {
        const row = r.results[0] as Record<string, unknown> | undefined;
        if (row && 'pos' in row && 'turn_index' in row && 'answer' in row) reads.push(r.results.length);
      }
    return answered;
  });
  return { db, reads };
}

describe('a conversation regenerated without end', () => {
  it('is read a window at a time: a correction on its last answer reads at most ATTRIBUTION_MAX_ANSWERS turns, and looks back no further', async () => {
    const p = await newProject();
    const start = Date.now() - 3_600_000;
    const turn = (traceId: string, turnIndex: number, at: number, answer: string) =>
      trace({ traceId, sessionId: 'endless', userIdHash: 'u1', turnIndex, createdAt: at, query: 'refund for opened items?', answer });
    const first = turn('first', 0, start, 'Opened items are refunded as store credit [1].');
    const regenerated = Array.from({ length: 3 * ATTRIBUTION_MAX_ANSWERS }, (_, i) => turn(`again-${i}`, 1, start + 60_000 + i * 1_000, `Try ${i} [1].`));
    const all = [first, ...regenerated];
    for (let i = 0; i < all.length; i += 50) await sendTraffic(p, all.slice(i, i + 50));
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });

    // Tomorrow a correction arrives on the last answer, naming the first one's words.
    const last = regenerated.at(-1)!;
    await sendTraffic(
      p,
      [],
      [
        {
          traceId: last.traceId,
          sessionId: 'endless',
          clientTs: last.createdAt + 30_000,
          signalType: 'correction',
          detail: { text: 'Your earlier answer was wrong: opened items are refunded, not store credit' },
        },
      ],
    );
    const { db, reads } = watchingTurnReads();
    await runNightly({ ...env, DB: db }, Date.now() + DAY, { projects: [p.id] });
    expect(reads.length).toBeGreaterThan(0);
    expect(Math.max(...reads)).toBe(ATTRIBUTION_MAX_ANSWERS);

    const row = await env.DB.prepare(
      `select a.attribution from event_assessments a join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
       where a.project_id = ? and e.signal_type = 'correction'`,
    )
      .bind(p.id)
      .first<{ attribution: string }>();
    const scored = (JSON.parse(row!.attribution) as { scores: { traceId: string }[] }).scores.map((s) => s.traceId);
    expect(scored).toHaveLength(ATTRIBUTION_MAX_ANSWERS);
    expect(scored).not.toContain('first');
    expect(scored.at(-1)).toBe(last.traceId);
  });
});
