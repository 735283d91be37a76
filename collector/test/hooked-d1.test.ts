import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hookedD1 } from './hooked-d1.ts';

describe('hookedD1', () => {
  it('runs every way to run SQL through its hook: a statement, a batch, exec and a session', async () => {
    const seen: string[] = [];
    const down = hookedD1(env.DB, async ({ sql, batch }) => {
      seen.push(`${batch ? 'batch' : 'one'}: ${sql.join('; ')}`);
      throw new Error('D1_ERROR: Network connection lost');
    });
    await expect(down.prepare('select 1').run()).rejects.toThrow(/connection lost/);
    await expect(down.batch([down.prepare('select 2')])).rejects.toThrow(/connection lost/);
    await expect(down.exec('select 3')).rejects.toThrow(/connection lost/);
    const session = down.withSession('first-primary');
    await expect(session.prepare('select 4').first()).rejects.toThrow(/connection lost/);
    expect(seen).toEqual(['one: select 1', 'batch: select 2', 'one: select 3', 'one: select 4']);
  });

  it('offers a session only what a session has', () => {
    const session = hookedD1(env.DB, (_, run) => run()).withSession('first-primary') as unknown as Record<string, unknown>;
    expect([typeof session.exec, typeof session.withSession, typeof session.prepare]).toEqual(['undefined', 'undefined', 'function']);
  });
});
