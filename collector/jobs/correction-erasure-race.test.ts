import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { adminCall, newProject, rowsNaming, sendTraffic, trace } from '../test/fixtures.ts';
import { hookedD1 } from '../test/hooked-d1.ts';
import { runNightly } from './nightly.ts';

it("writes no correction of a user erased between the corrections stage's reads and its writes", async () => {
  const p = await newProject();
  const t = trace({ userIdHash: 'u-gone', sessionId: 's-gone', createdAt: Date.now() - 60_000 });
  await sendTraffic(p, [t], [{ traceId: t.traceId, sessionId: 's-gone', signalType: 'correction', detail: { text: 'Refunds take 30 days now' } }]);
  let erased = false;
  let written: unknown;
  const db = hookedD1(env.DB, async ({ sql, batch }, run) => {
    const racing = batch && !erased && sql.some((s) => /^\s*insert into corrections\b/.test(s));
    if (racing) {
      erased = true;
      expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    }
    const result = await run();
    // What the stage wrote, before later stages of the run tidy anything up.
    if (racing) written = await env.DB.prepare('select count(*) as n from corrections where project_id = ?').bind(p.id).first('n');
    return result;
  });
  await runNightly({ ...env, DB: db }, Date.now() + 1_000, { projects: [p.id] });
  expect(erased).toBe(true);
  expect(written).toBe(0);
  expect(await rowsNaming(p.id, [t.traceId, 'u-gone'])).toEqual([]);
});
