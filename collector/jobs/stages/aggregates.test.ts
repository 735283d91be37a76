import { describe, expect, it } from 'vitest';
import { chunkDaysOf } from '../../storage/sql/chunk-signals.ts';
import { planOf } from '../../test/fixtures.ts';
import { chunkDaysSql, chunkSignalsSql, pendingAnswersSql } from './aggregates.ts';
import { sliceKeysSql } from './stage.ts';

describe("the chunk aggregates' plan", () => {
  // A night's answers, not every aggregate of the project: the table holds a million.
  it('finds the answers to add on the index of pending ones', async () => {
    const plan = await planOf(pendingAnswersSql, 'p', '', 10);
    expect(plan).toContainEqual(
      expect.stringMatching(/^SEARCH trace_stats USING (COVERING )?INDEX trace_stats_retrievals_pending \(project_id=\? AND trace_id>\?\)/),
    );
  });

  it("counts a chunk day's signals from its range of the events naming the chunk, on their index", async () => {
    // As the stage builds them: the slice's keys of the run's list.
    const days = chunkDaysOf(sliceKeysSql('chunk_day'));
    const slice = ['p', '2026-11-26', '', 2000];
    const { clear, count } = chunkDaysSql(days);
    const counting = await planOf(count, ...slice, 0);
    expect(counting).toContainEqual(
      expect.stringMatching(/^SEARCH e USING INDEX feedback_events_chunk \(project_id=\? AND <expr>=\? AND received_at>\? AND received_at<\?\)/),
    );
    expect(await planOf(clear, ...slice)).toContainEqual(
      expect.stringMatching(
        /^SEARCH chunk_signal_days USING (COVERING )?INDEX sqlite_autoindex_chunk_signal_days_1 \(project_id=\? AND chunk_id=\? AND day=\?\)/,
      ),
    );
    // A chunk's counts, the sum of its days: on their key, never the project's days.
    const summing = await planOf(chunkSignalsSql(days), ...slice, 0);
    expect(summing).toContainEqual(expect.stringMatching(/^SEARCH d USING INDEX sqlite_autoindex_chunk_signal_days_1 \(project_id=\? AND chunk_id=\?\)/));
    expect(summing).toContainEqual(
      expect.stringMatching(/^SEARCH chunk_stats USING (COVERING )?INDEX sqlite_autoindex_chunk_stats_1 \(project_id=\? AND chunk_id=\?\)/),
    );
  });
});
