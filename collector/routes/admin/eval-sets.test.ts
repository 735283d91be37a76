import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { bearer, call, newProject } from '../../test/fixtures.ts';

const evalSet = (p: { keys: { admin: string } }, path: string) => call(`/v1/admin/eval-sets/${path}`, { headers: bearer(p.keys.admin) });

describe('GET /v1/admin/eval-sets/:layer', () => {
  it('serves a frozen version, even an empty one, and answers 404 naming the version for one never frozen', async () => {
    const p = await newProject();
    const none = await evalSet(p, 'echo');
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { code: 'no_eval_set', field: 'version' } });

    await env.DB.prepare('insert into eval_sets (project_id, layer, version, items, created_at) values (?, ?, ?, 0, ?)')
      .bind(p.id, 'echo', '2026-W49', Date.now())
      .run();
    const frozen = await evalSet(p, 'echo?version=2026-W49');
    expect(frozen.status).toBe(200);
    expect(frozen.headers.get('content-disposition')).toContain('eval-echo-2026-W49.jsonl');
    expect(await frozen.text()).toBe('');
    expect((await evalSet(p, 'echo')).status).toBe(200);

    for (const path of ['echo?version=2099-W01', 'variant?version=2026-W49']) {
      const missing = await evalSet(p, path);
      expect(missing.status, path).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'unknown_version', field: 'version' } });
    }
  });
});
