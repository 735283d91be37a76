/** Stale documents across a document's versions: a version its owner replaced is not held against the document. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { flaggedDocuments } from '../storage/documents.ts';
import { newProject } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;

/** One version's figures on one day. */
interface Cited {
  version: string;
  traces: number;
  negative?: number;
  requeried?: number;
}

/**
 * Counted days, as the days stage leaves them: refunds.md's versions as given (every answer
 * scored), and 20 answers a day that went well elsewhere, the project's baseline with them.
 */
async function countedDays(projectId: string, night: number, days: readonly { daysAgo: number; cited: readonly Cited[] }[]) {
  await env.DB.batch(
    days.flatMap(({ daysAgo, cited }) => {
      const day = utcDay(night - daysAgo * DAY);
      const sum = (pick: (c: Cited) => number) => cited.reduce((n, c) => n + pick(c), 0);
      const traces = 20 + sum((c) => c.traces);
      return [
        ...cited.map((c) =>
          env.DB.prepare(
            `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried, worst)
             values (?, 'refunds.md', json_array(?), ?, ?, ?, ?, ?, ?, '[]')`,
          ).bind(projectId, c.version, day, c.traces, c.traces, c.negative ?? 0, c.traces - (c.negative ?? 0), c.requeried ?? 0),
        ),
        env.DB.prepare(
          `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried, worst)
           values (?, 'guide.md', '[""]', ?, 20, 20, 0, 20, 0, '[]')`,
        ).bind(projectId, day),
        env.DB.prepare(
          `insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried)
           values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
        ).bind(
          projectId,
          day,
          traces,
          traces,
          traces,
          traces,
          traces,
          traces,
          sum((c) => c.negative ?? 0),
          sum((c) => c.requeried ?? 0),
        ),
      ];
    }),
  );
}

/** Days `from` to `to` days before the night, each with the same figures. */
const daysAgo = (from: number, to: number, cited: readonly Cited[]) => Array.from({ length: from - to + 1 }, (_, i) => ({ daysAgo: from - i, cited }));

/** Merges days given twice (a day both versions were cited on). */
const merged = (...lists: { daysAgo: number; cited: readonly Cited[] }[][]) => {
  const byDay = new Map<number, Cited[]>();
  for (const { daysAgo, cited } of lists.flat()) byDay.set(daysAgo, [...(byDay.get(daysAgo) ?? []), ...cited]);
  return [...byDay].map(([daysAgo, cited]) => ({ daysAgo, cited }));
};

const flagsOf = async (projectId: string) =>
  (await flaggedDocuments(env.DB, projectId)).map((f) => ({ version: f.sourceDocVersion, failed: f.failed, scored: f.counts.scored }));

/** Half a minute into tonight: the night's own day has nothing yet. */
const tonight = () => Date.parse(`${utcDay(Date.now())}T00:00:30Z`);

describe('stale documents over versions', () => {
  it('no longer flags a document whose owner replaced the version that went wrong, nor that version, once only the new one is cited', async () => {
    const p = await newProject();
    const night = tonight();
    // v1 went wrong on every answer until a week ago; v2, cited since the day it came out (v1 too, that day), goes right.
    await countedDays(p.id, night, merged(daysAgo(20, 8, [{ version: 'v1', traces: 5, negative: 5 }]), daysAgo(8, 1, [{ version: 'v2', traces: 5 }])));
    await runNightly(env, night, { projects: [p.id] });
    expect(await flagsOf(p.id)).toEqual([]);
  });

  it('flags the document, once, on the answers of a new version that goes wrong too', async () => {
    const p = await newProject();
    const night = tonight();
    await countedDays(
      p.id,
      night,
      merged(daysAgo(20, 8, [{ version: 'v1', traces: 5, negative: 5 }]), daysAgo(8, 1, [{ version: 'v2', traces: 5, negative: 4 }])),
    );
    await runNightly(env, night, { projects: [p.id] });
    // Judged as a whole on what users are shown now: v2's 40 answers, not v1's 65 with them.
    expect(await flagsOf(p.id)).toEqual([{ version: '*', failed: ['badAnswers'], scored: 40 }]);
  });

  it('still flags a document whose questions are re-asked more since its new version came out, against the old one’s weeks', async () => {
    const p = await newProject();
    const night = tonight();
    await countedDays(
      p.id,
      night,
      merged(daysAgo(34, 8, [{ version: 'v1', traces: 5, requeried: 0 }]), daysAgo(7, 1, [{ version: 'v2', traces: 5, requeried: 2 }])),
    );
    await runNightly(env, night, { projects: [p.id] });
    expect(await flagsOf(p.id)).toEqual([{ version: '*', failed: ['reasked'], scored: 35 }]);
  });

  it('no longer holds against a document a new version that went wrong and was taken back', async () => {
    const p = await newProject();
    const night = tonight();
    // v2 came out, went wrong and was taken back: v1, which goes right, is cited again since.
    await countedDays(
      p.id,
      night,
      merged(
        daysAgo(20, 12, [{ version: 'v1', traces: 5 }]),
        daysAgo(11, 6, [{ version: 'v2', traces: 5, negative: 5 }]),
        daysAgo(5, 1, [{ version: 'v1', traces: 5 }]),
      ),
    );
    await runNightly(env, night, { projects: [p.id] });
    expect(await flagsOf(p.id)).toEqual([]);
  });
});
