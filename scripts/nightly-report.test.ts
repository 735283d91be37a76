import { describe, expect, it } from 'vitest';
import { type NightlySummary, nightlyReport } from './nightly-report.ts';

const finishedAt = Date.UTC(2026, 11, 7, 2, 15, 0);
const summary = (calledAt: number): NightlySummary => ({
  night: '2026-12-07',
  calledAt,
  done: true,
  runs: [
    {
      projectId: 'dev',
      status: 'done',
      stage: null,
      finishedAt,
      stages: [{ name: 'mine', slices: 1, ms: 12, counts: { items: 3 }, note: 'nothing held' }],
    },
  ],
});

describe('npm run nightly', () => {
  it('says when a night ran earlier in UTC, as the night and the other commands do, not in this machine’s time', () => {
    const lines = nightlyReport(summary(finishedAt + 3_600_000), 0, 'npm run retrain').filter((p) => typeof p === 'string');
    expect(lines).toEqual([
      'night 2026-12-07, project dev: done earlier, at 2026-12-07T02:15:00.000Z: its report',
      'mine (at 2026-12-07T02:15:00.000Z): nothing held',
      'The next night runs tomorrow (or the cron); `npm run retrain` trains on what was reviewed since, now.',
    ]);
  });

  it('gives a run this call did its status and its table of stages', () => {
    expect(nightlyReport(summary(finishedAt - 60_000), 0, 'npm run retrain')).toEqual([
      'night 2026-12-07, project dev: done',
      [{ stage: 'mine', slices: 1, ms: 12, counts: 'items 3' }],
      'mine: nothing held',
    ]);
  });
});
