/**
 * The loop must keep working: a reduced `npm run loop:eval` (a few simulated weeks of small
 * traffic, no browser) through the real collector, nightly job, review, training and gate. Test
 * queries never reach the loop; the model checks are on the validation share of train. The loop
 * does not yet beat BM25 by a clear margin (README, "Does the loop work?"), hence the todo.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from './params.ts';
import { reportTable } from './report.ts';
import { runLoopEval } from './run.ts';

/**
 * nDCG@10 the last model trained may lose to BM25 on validation. Measured at this setting over
 * seeds 11-13: the last model's validation nDCG@10 was BM25 -0.004 to +0.010, so a model trained
 * on confirmed feedback that ranks unseen queries clearly worse than retrieval fails here.
 */
const HARM_SLACK = 0.01;
/** A promotion may not cost the test queries more than this (the gate judges on its own held-out sets). */
const GATE_SLACK = 0.01;

describe('npm run loop:eval, reduced', () => {
  it('feedback becomes confirmed examples, the models trained on them do not rank unseen queries worse than BM25, and the gate holds', {
    timeout: 180_000,
  }, async () => {
    const report = await runLoopEval(
      { ...DEFAULT_PARAMS, cycles: 4, sessions: 200, browserSessions: 0, reviewMinutesPerWeek: 60, seed: 11, out: '' },
      () => {},
    );
    console.log(reportTable(report));
    for (const week of report.cycles) {
      expect(week.eventsStored).toBe(week.eventsSent);
      expect(week.eventsDuplicate).toBe(0);
      expect(week.trustedSignals).toBeGreaterThan(0);
      expect(week.mined).toBeGreaterThan(0);
      // Every answer a rephrase said was wrong is marked by the collector as it stores the traces.
      expect(week.pushBacksMarked).toBe(week.pushedBack);
    }
    expect(report.cycles.reduce((n, w) => n + w.pushedBack, 0)).toBeGreaterThan(0);
    expect(report.cycles.at(-1)!.confirmed).toBeGreaterThan(500);
    const candidates = report.cycles.flatMap((w) => (w.candidate ? [w.candidate] : []));
    expect(candidates.length).toBeGreaterThanOrEqual(3);
    expect(candidates.at(-1)!.validationNdcg10).toBeGreaterThan(report.baseline.validation.ndcg10 - HARM_SLACK);
    for (const g of report.gateRegressions) expect(g.after).toBeGreaterThan(g.before - GATE_SLACK);
  });

  // Measured at this setting over seeds 11-13: the promoted model's test nDCG@10 was BM25 +0.000 (none promoted), +0.000 and +0.000 (none promoted).
  it.todo('the promoted model beats BM25 on the test queries by a clear margin (not reached yet: see "Does the loop work?" in the README)');
});
