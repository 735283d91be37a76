import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newProject } from '../test/fixtures.ts';
import { hookedD1, once } from '../test/hooked-d1.ts';
import { answeredItem } from '../test/review-items.ts';
import { tinyModel } from '../test/tiny-model.ts';
import {
  artifactParts,
  currentVersion,
  latestTraining,
  MODEL_PART_CHARS,
  modelArtifact,
  newSinceLastModel,
  promoteModel,
  recordModel,
  rewriteArtifact,
  rollBack,
} from './models.ts';

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
  const landed = once(first);
  return hookedD1(d1, async ({ sql }, run) => {
    if (sql.some((s) => s.includes('insert into model_rollouts'))) await landed();
    return run();
  });
}

/** A project's rollouts in order, as `action version`. */
const rolloutsOf = async (projectId: string) =>
  (
    await env.DB.prepare("select action || ' ' || version as rollout from model_rollouts where project_id = ? order by seq")
      .bind(projectId)
      .all<{ rollout: string }>()
  ).results.map((r) => r.rollout);

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

  it('says a promoted version two runs of one night both trained is stored already, not that users got it meanwhile', async () => {
    const p = await newProject();
    expect(await record(p.id, 'nightly-1', true)).toEqual({ outcome: 'recorded' });
    // The other run of the night, trained against what was served before the first promoted its model.
    expect(await record(p.id, 'nightly-1', true)).toEqual({ outcome: 'exists' });
    expect(await rolloutsOf(p.id)).toEqual(['promote nightly-1']);
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
    // The race did come in between: C's rollouts stand before B's.
    expect(await rolloutsOf(p.id)).toEqual(['promote A', 'promote C', 'rollback C', 'promote B']);
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

const revisionOf = async (projectId: string, version: string) =>
  (await env.DB.prepare('select revision from models where project_id = ? and version = ?').bind(projectId, version).first<{ revision: number }>())?.revision;

describe('rewriteArtifact', () => {
  it('keeps the artifact whole when two rewrites of one version race: the one that lost writes none of its parts', async () => {
    const p = await newProject();
    await record(p.id, 'big', true);
    // Two erasures scrub the same model at once, each reading it before either writes: texts of
    // one length in several parts (a model remembering thousands of judged questions).
    const a = 'a'.repeat(MODEL_PART_CHARS * 2 + 1000);
    const b = 'b'.repeat(a.length);
    let releaseA = () => {};
    let releaseB = () => {};
    let readA = () => {};
    let readB = () => {};
    const read = Promise.all([new Promise<void>((r) => (readA = r)), new Promise<void>((r) => (readB = r))]);
    const first = rewriteArtifact(env.DB, p.id, 'big', async () => {
      readA();
      await new Promise<void>((r) => (releaseA = r));
      return a;
    });
    const second = rewriteArtifact(env.DB, p.id, 'big', async () => {
      readB();
      await new Promise<void>((r) => (releaseB = r));
      return b;
    });
    await read;
    releaseA();
    expect(await first).toBe(true);
    releaseB();
    expect(await second).toBe(false);
    expect(await modelArtifact(env.DB, p.id, 'big')).toBe(a);
    expect(await revisionOf(p.id, 'big')).toBe(1);
  });
});

/**
 * The D1, except that `between` runs once after the artifact is read and before its revision is:
 * a rewrite landing between two reads that D1 may answer in either order. Reads made together in
 * one batch see one state, so it runs after them.
 */
function betweenReads(d1: D1Database, between: () => Promise<unknown>): D1Database {
  const landed = once(between);
  let artifactRead = () => {};
  const artifactReadDone = new Promise<void>((resolve) => (artifactRead = resolve));
  const isArtifact = (sql: string) => sql.includes('select 0 as part, artifact');
  const isRevision = (sql: string) => sql.startsWith('select revision from models');
  return hookedD1(d1, async ({ sql, batch }, run) => {
    if (batch && sql.some((s) => isArtifact(s) || isRevision(s))) {
      const results = await run();
      await landed();
      return results;
    }
    if (!batch && isArtifact(sql[0]!)) {
      const results = await run();
      artifactRead();
      return results;
    }
    if (!batch && isRevision(sql[0]!)) {
      await artifactReadDone;
      await landed();
    }
    return run();
  });
}

describe('rewriteArtifact when another rewrite lands while it reads', () => {
  it("never writes over the other's change: its revision and its text are read as one", async () => {
    const p = await newProject();
    await record(p.id, 'read', true);
    const other = () => rewriteArtifact(env.DB, p.id, 'read', (t) => t.replace('"c1"', '"c2"'));
    const db = betweenReads(env.DB, other);
    for (let tries = 0; !(await rewriteArtifact(db, p.id, 'read', (t) => t.replace('"baseRate":0.1', '"baseRate":0.2'))); tries++)
      expect(tries).toBeLessThan(3);
    const stored = await modelArtifact(env.DB, p.id, 'read');
    expect(stored).toContain('"c2"');
    expect(stored).toContain('"baseRate":0.2');
    expect(await revisionOf(p.id, 'read')).toBe(2);
  });
});

/** A model trained on one confirmed example, dated `at`, whose training read its data at `dataReadAt`. */
const modelRead = (projectId: string, version: string, at: number, dataReadAt: number) =>
  recordModel(env.DB, projectId, {
    model: tinyModel(version),
    trainedBy: 'nightly',
    confirmed: 1,
    comparedWith: null,
    evaluation: {},
    promote: false,
    findings: [],
    reasons: ['simulated'],
    at,
    dataReadAt,
  });

describe('newSinceLastModel', () => {
  it("finds an answer given after a model's training read its data new, though the model is dated at a night days ahead", async () => {
    const p = await newProject();
    const readAt = Date.now() - 60_000;
    await answeredItem(p.id, 1, 'relevant', readAt - 60_000).run();
    expect((await modelRead(p.id, 'nightly-ahead', Date.now() + 8 * 86_400_000, readAt)).outcome).toBe('recorded');
    const last = await latestTraining(env.DB, p.id);
    expect(last).toMatchObject({ confirmed: 1, dataReadAt: readAt });
    expect(await newSinceLastModel(env.DB, p.id, last, 1)).toBe(false);
    // Changed after the read, by the real clock, before the model's night.
    await env.DB.prepare(`update review_items set verdict = 'not_relevant', answered_at = ? where project_id = ?`)
      .bind(readAt + 1_000, p.id)
      .run();
    expect(await newSinceLastModel(env.DB, p.id, last, 1)).toBe(true);
  });

  it('compares with the model whose training read its data last, while the schedule counts from the latest night', async () => {
    const p = await newProject();
    const now = Date.now();
    await answeredItem(p.id, 1, 'relevant', now - 300_000).run();
    // A night run days ahead read the data first; an answer changed; `npm run retrain` read it again since, dated now.
    const ahead = now + 8 * 86_400_000;
    expect((await modelRead(p.id, 'nightly-ahead', ahead, now - 200_000)).outcome).toBe('recorded');
    await env.DB.prepare(`update review_items set verdict = 'not_relevant', answered_at = ? where project_id = ?`)
      .bind(now - 150_000, p.id)
      .run();
    expect((await modelRead(p.id, 'retrained', now, now - 100_000)).outcome).toBe('recorded');
    const last = await latestTraining(env.DB, p.id);
    expect(last).toEqual({ createdAt: ahead, confirmed: 1, dataReadAt: now - 100_000 });
    expect(await newSinceLastModel(env.DB, p.id, last, 1)).toBe(false);
  });
});
