import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Correction } from '../../../shared/admin-api/documents.ts';
import { adminCall as admin, newProject } from '../../test/fixtures.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** An open correction routed by `sourceDocId`, as the nightly job writes one. */
const correction = (p: Project, eventId: string, sourceDocId: string, createdAt: number) =>
  env.DB.prepare(
    `insert into corrections (project_id, event_id, trace_id, query, text, source_doc_id, confidence, status, created_at)
     values (?, ?, ?, 'q', 'the fee is 5 %', ?, 0.9, 'open', ?)`,
  )
    .bind(p.id, eventId, `t-${eventId}`, sourceDocId, createdAt)
    .run();

describe('GET /v1/admin/corrections', () => {
  it('groups under any owner name, one an object already has a property of too', async () => {
    const p = await newProject();
    const owners = ['constructor', 'toString', '__proto__', 'legal'];
    expect((await admin(p, '/owners', { method: 'PUT', json: { owners: owners.map((owner) => ({ pattern: `${owner}/*`, owner })) } })).status).toBe(200);
    for (const [i, owner] of owners.entries()) await correction(p, `e${i}`, `${owner}/fees.md`, 1_000 - i);
    await correction(p, 'e-none', 'nobody/fees.md', 1);

    const { status, body } = await admin<{ owners: { owner: string | null; corrections: Correction[] }[] }>(p, '/corrections');
    expect(status).toBe(200);
    expect(body.owners.map((o) => [o.owner, o.corrections.map((c) => c.eventId)])).toEqual([
      ['constructor', ['e0']],
      ['toString', ['e1']],
      ['__proto__', ['e2']],
      ['legal', ['e3']],
      [null, ['e-none']],
    ]);
  });
});
