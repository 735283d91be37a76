import { describe, expect, it } from 'vitest';
import { TRACE_TEXTS_SQL } from '../../jobs/stages/mine.ts';
import { planOf } from '../../test/fixtures.ts';
import { documentAnswersSql } from './day-counts.ts';

const ON_THE_KEY = 'SEARCH c USING INDEX sqlite_autoindex_trace_chunks_1 (project_id=? AND trace_id=?)';
/** What the model saw of each answer (documentAnswersSql), and whether it had a reranked stage: both on the key. */
const SEEN_ON_THE_KEY = [
  'SEARCH c USING INDEX sqlite_autoindex_trace_chunks_1 (project_id=? AND trace_id=? AND stage=?)',
  'SEARCH x USING COVERING INDEX sqlite_autoindex_trace_chunks_1 (project_id=? AND trace_id=? AND stage=?)',
];
const chunkSteps = (plan: string[]) => plan.filter((step) => /^SEARCH [cx] |^SCAN [cx]\b/.test(step));

describe('chunk rows read by trace', () => {
  // The chunk index searched on the project alone is every chunk row of the project for each answer.
  it("are read on their key, each answer's alone, never on the chunk index", async () => {
    const oldTraces = 'select trace_id from traces where project_id = ?1 and received_at < ?2 order by received_at, trace_id limit 10';
    expect(chunkSteps(await planOf(documentAnswersSql(`t.project_id = ?1 and t.trace_id in (${oldTraces})`), 'p', 1))).toEqual(SEEN_ON_THE_KEY);
    expect(chunkSteps(await planOf(documentAnswersSql('t.project_id = ?1 and t.created_at >= ?3 and t.created_at < ?4'), 'p', 1, 2, 3))).toEqual(
      SEEN_ON_THE_KEY,
    );
    expect(chunkSteps(await planOf(TRACE_TEXTS_SQL, 'p', '["t1","t2"]'))).toEqual([ON_THE_KEY]);
  });
});
