import { describe, expect, it } from 'vitest';
import { planOf } from '../../test/fixtures.ts';
import { touchedChunkDaysSql } from './prepare.ts';

/** The parameters every touched-chunk-days statement takes: the project and the night. */
const PARAMS = ['p', '2026-11-26'];

describe("the touched chunk days' plan", () => {
  it('reads each touched trace on its own events when a night touches a few', async () => {
    const plan = await planOf(touchedChunkDaysSql(false), ...PARAMS);
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING INDEX feedback_trace \(project_id=\? AND trace_id=\?\)/));
    // Never every event of the project once per trace.
    expect(plan.filter((step) => /feedback_events_chunk \(project_id=\?\)$/.test(step))).toEqual([]);
  });

  it('reads only the events naming a chunk, on their index, when a night touches most traces', async () => {
    const plan = await planOf(`select ?2 as night, key from (${touchedChunkDaysSql(true)})`, ...PARAMS);
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING (COVERING )?INDEX feedback_events_chunk \(project_id=\?\)/));
  });
});
