/** Follow-ups of stop words alone ("Why?") from different sessions are not one question to the nightly job. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { HISTORY_MIN_TRACES } from '../loop/noise.ts';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;

/** An answer to `query` in a session of its own, and a vote on it from that session. */
const asked = (traceId: string, query: string, signalType: 'thumbs_up' | 'thumbs_down') => ({
  trace: trace({ traceId, query, sessionId: `s-${traceId}` }),
  vote: { traceId, sessionId: `s-${traceId}`, signalType },
});

/**
 * `query` asked and voted up in HISTORY_MIN_TRACES sessions last night, then once more tonight in
 * another session and voted down: the rules that vote down was given.
 */
async function voteDownRulesAfterHistory(query: string): Promise<string[]> {
  const p = await newProject();
  const earlier = Array.from({ length: HISTORY_MIN_TRACES }, (_, i) => asked(`old-${i}`, query, 'thumbs_up'));
  await sendTraffic(
    p,
    earlier.map((a) => a.trace),
    earlier.map((a) => a.vote),
  );
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const tonight = asked('b-new', query, 'thumbs_down');
  await sendTraffic(p, [tonight.trace], [tonight.vote]);
  await runNightly(env, Date.now() + DAY, { projects: [p.id] });
  const { results } = await env.DB.prepare(
    `select r.value ->> 'rule' as rule from feedback_events e join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id, json_each(a.rules) r
     where e.project_id = ? and e.trace_id = 'b-new'`,
  )
    .bind(p.id)
    .all<{ rule: string }>();
  return results.map((r) => r.rule);
}

describe('a question of stop words alone', () => {
  it('has no history in other sessions’ answers to the same stop words', async () => {
    // The same traffic with a question of its own words: the others' votes up are its history.
    expect(await voteDownRulesAfterHistory('Refund for opened items?')).toContain('against_query_history');
    expect(await voteDownRulesAfterHistory('Why?')).not.toContain('against_query_history');
  });

  it('raises review items of its own, not merged with another session’s', async () => {
    const p = await newProject();
    const chunk = { chunkId: 'ship-1', sourceDocId: 'shipping.md', score: 0.9, rank: 1, text: 'Shipping to Canada takes 5 to 8 business days.' };
    const answers = ['why-a', 'why-b'].map((traceId) =>
      trace({ traceId, query: 'Why?', sessionId: `s-${traceId}`, retrievedChunks: [chunk], rerankedChunks: undefined }),
    );
    await sendTraffic(
      p,
      answers,
      answers.flatMap((t) => [
        { traceId: t.traceId, sessionId: t.sessionId, signalType: 'thumbs_down' as const },
        { traceId: t.traceId, sessionId: t.sessionId, signalType: 'wrong_source' as const, detail: { chunkId: 'ship-1' } },
      ]),
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const { results: items } = await env.DB.prepare(
      `select i.item_id, i.trace_count, group_concat(t.trace_id) as traces from review_items i
       join review_item_traces t on t.project_id = i.project_id and t.item_id = i.item_id
       where i.project_id = ? and i.chunk_id = 'ship-1' group by i.item_id order by traces`,
    )
      .bind(p.id)
      .all<{ item_id: string; trace_count: number; traces: string }>();
    expect(items.map((i) => [i.traces, i.trace_count])).toEqual([
      ['why-a', 1],
      ['why-b', 1],
    ]);
    // Nor is it one question in the answers' stored keys, which history, eval sets and training group by.
    const { results: keys } = await env.DB.prepare(`select distinct query_key from trace_stats where project_id = ?`).bind(p.id).all();
    expect(keys).toHaveLength(2);
  });
});
