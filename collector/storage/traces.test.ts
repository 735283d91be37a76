import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { bearer, call, newProject, trace } from '../test/fixtures.ts';

describe('chunk texts', () => {
  it('are stored once per chunk id and version however many traces retrieve them, and come back with every trace', async () => {
    const p = await newProject();
    const shared = {
      chunkId: 'c-shared',
      sourceDocId: 'refunds.md',
      sourceDocVersion: 'v3',
      score: 0.9,
      rank: 1,
      text: 'Opened items can be returned within 14 days.',
    };
    const newer = { ...shared, sourceDocVersion: 'v4', text: 'Opened items can be returned within 30 days.' };
    const traces = [
      trace({ retrievedChunks: [shared], rerankedChunks: [shared] }),
      trace({ retrievedChunks: [shared], rerankedChunks: undefined }),
      trace({ retrievedChunks: [newer], rerankedChunks: undefined }),
    ];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces })).status).toBe(200);
    const { results } = await env.DB.prepare('select source_doc_version, text from chunk_texts where project_id = ? order by source_doc_version')
      .bind(p.id)
      .all();
    expect(results).toEqual([
      { source_doc_version: 'v3', text: shared.text },
      { source_doc_version: 'v4', text: newer.text },
    ]);
    for (const [t, text] of [
      [traces[0]!, shared.text],
      [traces[1]!, shared.text],
      [traces[2]!, newer.text],
    ] as const) {
      const body = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as {
        retrievedChunks: { text: string; chunkId: string }[];
      };
      expect(body.retrievedChunks.map((c) => [c.chunkId, c.text])).toEqual([['c-shared', text]]);
    }
  });

  it('are not added by a trace sent again with other chunks: it is a duplicate and stores nothing', async () => {
    const p = await newProject();
    const first = trace();
    const post = (t: typeof first) => call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    expect((await post(first)).status).toBe(200);
    const other = { chunkId: 'c-other', sourceDocId: 'other.md', score: 0.5, rank: 1, text: 'A text no stored chunk row uses.' };
    const again = await post({ ...first, retrievedChunks: [other], rerankedChunks: undefined });
    expect(((await again.json()) as { duplicate: number }).duplicate).toBe(1);
    const texts = await env.DB.prepare("select count(*) as n from chunk_texts where project_id = ? and chunk_id = 'c-other'").bind(p.id).first<{ n: number }>();
    expect(texts!.n).toBe(0);
  });
});
