import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newProject } from '../test/fixtures.ts';
import { tinyModel } from '../test/tiny-model.ts';
import { artifactParts, currentVersion, promoteModel, recordModel, rollBack } from './models.ts';

const record = (projectId: string, version: string, promote: boolean, comparedWith: string | null = null, db = env.DB) =>
  recordModel(db, projectId, {
    model: tinyModel(version),
    trainedBy: 'retrain',
    confirmed: 30,
    comparedWith,
    evaluation: {},
    promote,
    findings: [],
    reasons: ['by hand'],
    at: Date.now(),
  });

/** The D1, except that `first` runs just before the first rollout is written (alone or in a batch): a request landing in between. */
function racing(d1: D1Database, first: () => Promise<unknown>): D1Database {
  let fired = false;
  const once = async () => {
    if (fired) return;
    fired = true;
    await first();
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          await once();
          return target.batch(statements);
        };
      if (prop !== 'prepare') {
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        const statement = target.prepare(sql);
        if (!sql.includes('insert into model_rollouts')) return statement;
        // Still a real statement, so a batch takes it; only running it alone waits for `first`.
        const bind = statement.bind.bind(statement);
        statement.bind = (...args: unknown[]) => {
          const bound = bind(...args);
          const run = bound.run.bind(bound);
          bound.run = async <T>() => {
            await once();
            return run<T>();
          };
          return bound;
        };
        return statement;
      };
    },
  });
}

describe('the registry', () => {
  it('rolls back what users get when a promotion lands while the rollback is decided, and says so', async () => {
    const p = await newProject();
    await record(p.id, 'A', true);
    await record(p.id, 'B', true, 'A');
    await record(p.id, 'C', false);
    // The nightly gate (or another admin) serves C just before the rollback is written.
    const db = racing(env.DB, () => promoteModel(env.DB, p.id, 'C', 'promoted meanwhile', Date.now()));
    const done = await rollBack(db, p.id, 'B regressed', Date.now());
    expect(done).toEqual({ from: 'C', to: 'B' });
    expect(await currentVersion(env.DB, p.id)).toBe('B');
  });

  it('does not serve a model whose gate compared it with what a rollback decided meanwhile took away, and stores nothing', async () => {
    const p = await newProject();
    await record(p.id, 'A', true);
    // B was trained against A; an admin rolls A back just before B is written.
    const db = racing(env.DB, () => rollBack(env.DB, p.id, 'A regressed', Date.now()));
    expect(await record(p.id, 'B', true, 'A', db)).toEqual({ outcome: 'stale', current: null });
    expect(await currentVersion(env.DB, p.id)).toBeNull();
    expect(await record(p.id, 'B', true, null)).toEqual({ outcome: 'recorded' });
    expect(await currentVersion(env.DB, p.id)).toBe('B');
  });

  it('records a promotion whose comparison still holds after another rollout came in between', async () => {
    const p = await newProject();
    await record(p.id, 'A', true);
    await record(p.id, 'C', false);
    // C is served and rolled back again while B, trained against A, is being written.
    const db = racing(env.DB, async () => {
      await promoteModel(env.DB, p.id, 'C', 'tried', Date.now());
      await rollBack(env.DB, p.id, 'C regressed', Date.now());
    });
    expect(await record(p.id, 'B', true, 'A', db)).toEqual({ outcome: 'recorded' });
    expect(await currentVersion(env.DB, p.id)).toBe('B');
    expect(await rollBack(env.DB, p.id, 'back', Date.now())).toEqual({ from: 'B', to: 'A' });
  });
});

describe('artifactParts', () => {
  it('cuts a text into parts of at most the size asked that join into it, never between the halves of a character', () => {
    const text = `ab😀cd😀😀e${'x'.repeat(10)}`;
    for (const size of [2, 3, 4, 5, 7, 100]) {
      const parts = artifactParts(text, size);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(size);
        // A lone surrogate at either end would be stored as broken text.
        expect(/\p{Cs}/u.test(part)).toBe(false);
      }
    }
    expect(artifactParts('')).toEqual(['']);
  });
});
