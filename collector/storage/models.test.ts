import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newProject } from '../test/fixtures.ts';
import { tinyModel } from '../test/tiny-model.ts';
import { currentVersion, promoteModel, recordModel, rollBack } from './models.ts';

const record = (projectId: string, version: string, promote: boolean) =>
  recordModel(env.DB, projectId, {
    model: tinyModel(version),
    trainedBy: 'retrain',
    confirmed: 30,
    comparedWith: null,
    evaluation: {},
    promote,
    findings: [],
    reasons: ['by hand'],
    at: Date.now(),
  });

/** The D1, except that `first` runs just before the first rollout is written: a request landing in between. */
function racing(d1: D1Database, first: () => Promise<unknown>): D1Database {
  let fired = false;
  return new Proxy(d1, {
    get(target, prop) {
      if (prop !== 'prepare') {
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        const statement = target.prepare(sql);
        if (!sql.includes('insert into model_rollouts')) return statement;
        return {
          bind: (...args: unknown[]) => {
            const bound = statement.bind(...args);
            return {
              run: async () => {
                if (!fired) {
                  fired = true;
                  await first();
                }
                return bound.run();
              },
            };
          },
        };
      };
    },
  });
}

describe('the registry', () => {
  it('rolls back what users get when a promotion lands while the rollback is decided, and says so', async () => {
    const p = await newProject();
    await record(p.id, 'A', true);
    await record(p.id, 'B', true);
    await record(p.id, 'C', false);
    // The nightly gate (or another admin) serves C just before the rollback is written.
    const db = racing(env.DB, () => promoteModel(env.DB, p.id, 'C', 'promoted meanwhile', Date.now()));
    const done = await rollBack(db, p.id, 'B regressed', Date.now());
    expect(done).toEqual({ from: 'C', to: 'B' });
    expect(await currentVersion(env.DB, p.id)).toBe(done!.to);
  });
});
