import { describe, expect, it } from 'vitest';
import { planOf } from '../../test/fixtures.ts';
import { conflictKeysSql, FEEDBACK_LABELS } from './evals.ts';

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
