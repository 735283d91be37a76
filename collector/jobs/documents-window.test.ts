import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { adminCall as admin, newProject } from '../test/fixtures.ts';

const DAY = 86_400_000;

/** A document whose every answer went bad, among others that went well, on the given days. */
async function badDocumentOn(projectId: string, days: readonly string[]) {
  await env.DB.batch(
    days.flatMap((day) => [
      env.DB.prepare(
        `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried, worst)
         values (?1, 'bad.md', '[""]', ?2, 5, 5, 5, 0, 0, '[]'), (?1, 'good.md', '[""]', ?2, 20, 20, 0, 20, 0, '[]')`,
      ).bind(projectId, day),
      env.DB.prepare(
        `insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried)
         values (?, ?, 25, 25, 25, 25, 0, 25, 25, 5, 0)`,
      ).bind(projectId, day),
    ]),
  );
}

const flagged = async (p: Awaited<ReturnType<typeof newProject>>) =>
  (await admin<{ documents: { sourceDocId: string }[] }>(p, '/documents')).body.documents.map((d) => d.sourceDocId);

describe('stale documents judged for a night run late', () => {
  it('judges the days before that night, not the days after it', async () => {
    const night = Date.now() - 5 * DAY;
    const [before, after] = [await newProject(), await newProject()];
    await badDocumentOn(
      before.id,
      [1, 2, 3, 4].map((n) => utcDay(night - n * DAY)),
    );
    await badDocumentOn(
      after.id,
      [1, 2, 3, 4].map((n) => utcDay(night + n * DAY)),
    );
    for (const p of [before, after]) expect((await admin(p, `/nightly?at=${night}`, { method: 'POST' })).status).toBe(200);
    expect(await flagged(before)).toEqual(['bad.md']);
    expect(await flagged(after)).toEqual([]);
  });

  it('keeps the flags a later night judged when a missed night before it is run afterwards', async () => {
    const p = await newProject();
    await badDocumentOn(
      p.id,
      [1, 2, 3, 4].map((n) => utcDay(Date.now() - n * DAY)),
    );
    expect((await admin(p, '/nightly', { method: 'POST' })).status).toBe(200);
    expect(await flagged(p)).toEqual(['bad.md']);
    // A night the cron missed ten days ago, caught up now: its window holds none of those days.
    expect((await admin(p, `/nightly?at=${Date.now() - 10 * DAY}`, { method: 'POST' })).status).toBe(200);
    expect(await flagged(p)).toEqual(['bad.md']);
  });
});
