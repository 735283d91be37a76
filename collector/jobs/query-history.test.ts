/** The noise filter's history rule gives the same verdict whichever slice of the night an answer falls in. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { HISTORY_MIN_TRACES } from '../loop/noise.ts';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;
const QUESTION = 'refund for opened items?';

/**
 * A project whose question was answered well `earlier` times last night; tonight `ups` new answers
 * to it are voted up (a-0, a-1, …) and another voted down (b-new). Answers the rules the vote down
 * was given.
 */
async function voteDownAfter(earlier: number, tracesPerSlice: number, ups = 1): Promise<string[]> {
  const p = await newProject();
  const old = Array.from({ length: earlier }, (_, i) => trace({ traceId: `old-${i}`, query: QUESTION }));
  await sendTraffic(
    p,
    old,
    old.map((t) => ({ traceId: t.traceId, signalType: 'thumbs_up' as const })),
  );
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const up = Array.from({ length: ups }, (_, i) => trace({ traceId: `a-${i}`, query: QUESTION }));
  await sendTraffic(
    p,
    [...up, trace({ traceId: 'b-new', query: QUESTION })],
    [...up.map((t) => ({ traceId: t.traceId, signalType: 'thumbs_up' as const })), { traceId: 'b-new', signalType: 'thumbs_down' as const }],
  );
  await runNightly(env, Date.now() + DAY, { projects: [p.id], tracesPerSlice });
  const { results } = await env.DB.prepare(
    `select r.value ->> 'rule' as rule from feedback_events e join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id, json_each(a.rules) r
     where e.project_id = ? and e.trace_id = 'b-new'`,
  )
    .bind(p.id)
    .all<{ rule: string }>();
  return results.map((r) => r.rule);
}

describe("the history rule within a night's slices", () => {
  it('weighs a vote against the answers as the night found them, whether tonight’s other answer was assessed in an earlier slice or in the same one', async () => {
    // One answer short of a history: tonight's vote up must not complete it for the vote down.
    const short = HISTORY_MIN_TRACES - 1;
    expect(await voteDownAfter(short, 1)).toEqual(await voteDownAfter(short, 100));
    expect(await voteDownAfter(short, 1)).not.toContain('against_query_history');
    // With a history, the vote down goes against it in either slicing.
    expect(await voteDownAfter(HISTORY_MIN_TRACES, 1)).toContain('against_query_history');
    expect(await voteDownAfter(HISTORY_MIN_TRACES, 100)).toContain('against_query_history');
  });

  it('gives a question first answered tonight no history, however many of its answers an earlier slice scored', async () => {
    // The votes up fill the first slice; the vote down comes in the next one, or in the same.
    expect(await voteDownAfter(0, HISTORY_MIN_TRACES, HISTORY_MIN_TRACES)).toEqual([]);
    expect(await voteDownAfter(0, 100, HISTORY_MIN_TRACES)).toEqual([]);
  });
});
