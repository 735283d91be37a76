import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../../shared/time.ts';
import { isoWeek } from '../../loop/eval-sets.ts';
import { newProject, planOf } from '../../test/fixtures.ts';
import { runNightly } from '../nightly.ts';
import { conflictKeysSql, FEEDBACK_LABELS } from './evals.ts';

const DAY = 86_400_000;

describe("the week's eval sets", () => {
  it('are not built for the week of a missed night run after a later one, from the labels of today', async () => {
    const p = await newProject();
    const tonight = Date.now();
    const missed = tonight - 14 * DAY;
    const weeks = async () =>
      (await env.DB.prepare('select distinct version from eval_sets where project_id = ?').bind(p.id).all<{ version: string }>()).results.map((r) => r.version);
    await runNightly(env, tonight, { projects: [p.id] });
    expect(await weeks()).toEqual([isoWeek(utcDay(tonight))]);
    const run = await runNightly(env, missed, { projects: [p.id], wallClock: tonight });
    expect(run.runs[0]!.stages.find((s) => s.name === 'evals')!.counts).toEqual({ laterNightDone: 1 });
    expect(await weeks()).toEqual([isoWeek(utcDay(tonight))]);
  });
});

describe("the eval sets' plans", () => {
  it("reads a question's answers with explicit feedback alone, on their index, without their rows", async () => {
    const plan = await planOf(FEEDBACK_LABELS, 'p', '["a"]', 0.5, 0.3, 0);
    const answers = plan.filter((step) => /^(SEARCH|SCAN) s\b/.test(step));
    expect(answers.length).toBeGreaterThan(0);
    for (const step of answers) expect(step).toMatch(/^SEARCH s USING COVERING INDEX trace_stats_explicit \(project_id=\? AND query_key=\?\)/);
  });

  it('finds the questions judged both ways on the question index alone', async () => {
    for (const after of ['?2 is null', 'query_key > ?2']) {
      const plan = await planOf(conflictKeysSql(after), 'p', null, 500, 0.3, -0.3);
      expect(plan).toContainEqual(expect.stringMatching(/^SEARCH trace_stats USING COVERING INDEX trace_stats_query \(project_id=\?/));
      expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
    }
  });
});
