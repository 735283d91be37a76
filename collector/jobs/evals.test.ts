import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { queryKey } from '../../shared/terms.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { endingBeforeSave, INVOCATION_ENDED } from '../test/ending-invocation.ts';
import { bearer, call, type event, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';
import { STAGES } from './stages/index.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const send = sendTraffic;

const chunks = [
  { chunkId: 'good', sourceDocId: 'guide.md', score: 0.9, rank: 1, text: 'Opened items can be refunded within 14 days.' },
  { chunkId: 'bad', sourceDocId: 'other.md', score: 0.8, rank: 2, text: 'Shipping takes five days.' },
];

/** Queries the split holds out for evaluation, so the test does not depend on which ones it picks. */
const heldOutQueries = (n: number) =>
  Array.from({ length: 200 }, (_, i) => `store credit question number ${i}`)
    .filter((q) => isHeldOut(queryKey(q)))
    .slice(0, n);

/** Wordings `stem <n>` whose keys the split holds out (a variant must be held out itself), or, with `heldOut` false, trains on. */
const wordings = (stem: string, n: number, heldOut = true) =>
  Array.from({ length: 200 }, (_, i) => `${stem} ${i}`)
    .filter((q) => isHeldOut(queryKey(q)) === heldOut)
    .slice(0, n);

const answer = (query: string, sessionId: string, ageMs: number) =>
  trace({ query, retrievedChunks: chunks, rerankedChunks: undefined, sessionId, createdAt: Date.now() - ageMs });

/** A project whose held-out question was answered well, its source 'good' read with focus, and with `glanced` 'bad' read 2 s. */
async function readWithFocus(glanced: boolean) {
  const p = await newProject();
  const [query] = heldOutQueries(1) as [string];
  const t = answer(query, 'reader', 60_000);
  const read = (chunkId: string, ms: number) => ({
    traceId: t.traceId,
    sessionId: 'reader',
    signalType: 'citation_dwell' as const,
    detail: { chunkId, ms, mode: 'preview' as const },
  });
  await send(p, [t], [{ traceId: t.traceId, sessionId: 'reader', signalType: 'thumbs_up' }, read('good', 20_000), ...(glanced ? [read('bad', 2_000)] : [])]);
  return { p, query };
}

/** One layer of this week's eval set, by query. */
async function layer(p: Project, name: string) {
  const { results } = await env.DB.prepare('select query, judgements, source from eval_items where project_id = ? and layer = ? order by position')
    .bind(p.id, name)
    .all<{ query: string; judgements: string; source: string }>();
  return Object.fromEntries(results.map((r) => [r.query, { judgements: JSON.parse(r.judgements), source: r.source }]));
}

describe('eval sets', () => {
  it('labels a chunk users both engaged with and flagged as wrong as not relevant, whichever came first', async () => {
    const p = await newProject();
    const [flagFirst, flagLast] = heldOutQueries(2) as [string, string];
    const traces: TraceInput[] = [];
    const events: Parameters<typeof event>[0][] = [];
    // Per question: one clearly good answer whose user read and copied 'good', another whose user flagged 'good' as the wrong source.
    for (const [q, query, order] of [
      [1, flagFirst, ['flag', 'engage']],
      [2, flagLast, ['engage', 'flag']],
    ] as const) {
      for (const step of order) {
        const sessionId = `${step}-${q}`;
        const t = answer(query, sessionId, step === order[0] ? 60_000 : 50_000);
        traces.push(t);
        if (step === 'flag') events.push({ traceId: t.traceId, sessionId, signalType: 'wrong_source', detail: { chunkId: 'good' } });
        else
          events.push(
            { traceId: t.traceId, sessionId, signalType: 'thumbs_up' },
            { traceId: t.traceId, sessionId, signalType: 'copy_source', detail: { chunkId: 'good', chars: 40 } },
            { traceId: t.traceId, sessionId, signalType: 'citation_click', detail: { chunkId: 'bad' } },
          );
      }
    }
    await send(p, traces, events);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });

    const echo = await layer(p, 'echo');
    // The flag decides 'good' however the rows fall; 'bad', only engaged with on a good answer, is relevant.
    expect(echo[flagFirst]).toEqual({ judgements: { good: 0, bad: 1 }, source: 'feedback' });
    expect(echo[flagLast]).toEqual({ judgements: { good: 0, bad: 1 }, source: 'feedback' });
  });

  it('labels a source read with focus on a good answer as relevant, and one only glanced at not at all', async () => {
    const { p, query } = await readWithFocus(true);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect((await layer(p, 'echo'))[query]).toEqual({ judgements: { good: 1 }, source: 'feedback' });
  });

  it('labels no source from engagement on an answer not clearly good', async () => {
    const p = await newProject();
    const [query] = heldOutQueries(1) as [string];
    const liked = answer(query, 'sa', 60_000);
    const middling = answer(query, 'sb', 50_000);
    await send(
      p,
      [liked, middling],
      [
        { traceId: liked.traceId, sessionId: 'sa', signalType: 'thumbs_up' },
        { traceId: liked.traceId, sessionId: 'sa', signalType: 'citation_click', detail: { chunkId: 'good' } },
        // Rated three stars and its source clicked: scored above 0, not clearly good, so the click says nothing of whether 'bad' helps.
        { traceId: middling.traceId, sessionId: 'sb', signalType: 'rating', detail: { stars: 3 } },
        { traceId: middling.traceId, sessionId: 'sb', signalType: 'citation_click', detail: { chunkId: 'bad' } },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const score = await env.DB.prepare('select weighted_score from trace_stats where project_id = ? and trace_id = ?')
      .bind(p.id, middling.traceId)
      .first<number>('weighted_score');
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(0.3);
    expect((await layer(p, 'echo'))[query]).toEqual({ judgements: { good: 1 }, source: 'feedback' });
  });

  it('keeps a frozen set as it was when its last slice runs again after its writes landed but not its cursor', async () => {
    const { p, query } = await readWithFocus(false);
    // The invocation ends once the sets are frozen, before the run saved where it was.
    const db = endingBeforeSave(env.DB, (sql) => sql.startsWith('insert or ignore into eval_sets'));
    const night = Date.now() + 1_000;
    await expect(runNightly({ ...env, DB: db }, night, { projects: [p.id], tracesPerSlice: 1 })).rejects.toThrow(INVOCATION_ENDED);
    const items = async () =>
      (await env.DB.prepare('select layer, position, query, judgements from eval_items where project_id = ? order by layer, position').bind(p.id).all())
        .results;
    const before = await items();
    expect((await layer(p, 'echo'))[query]).toEqual({ judgements: { good: 1 }, source: 'feedback' });
    expect((await layer(p, 'replay'))[query]?.judgements).toEqual({ good: 1 });
    // What the label came from goes before the run goes on (the user's reading, say, erased).
    await env.DB.prepare("delete from feedback_events where project_id = ? and signal_type = 'citation_dwell'").bind(p.id).run();
    expect((await runNightly(env, night, { projects: [p.id], tracesPerSlice: 1 })).done).toBe(true);
    expect(await items()).toEqual(before);
  });

  it("replays the answers the project's lines call clearly good or bad, and scored far enough from neutral", async () => {
    const [clicked, read] = heldOutQueries(2) as [string, string];
    /** A project with an answer whose source was clicked (scored 0.5) and one whose source was read with focus (0.3). */
    async function replayed(settings: Record<string, number>) {
      const p = await newProject();
      if (Object.keys(settings).length > 0)
        expect((await call('/v1/admin/settings', { method: 'PUT', headers: bearer(p.keys.admin), json: settings })).status).toBe(200);
      const a = answer(clicked, 'sa', 60_000);
      const b = answer(read, 'sb', 50_000);
      await send(
        p,
        [a, b],
        [
          { traceId: a.traceId, sessionId: 'sa', signalType: 'citation_click', detail: { chunkId: 'good' } },
          { traceId: b.traceId, sessionId: 'sb', signalType: 'citation_dwell', detail: { chunkId: 'good', ms: 20_000, mode: 'preview' } },
        ],
      );
      await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
      const { results } = await env.DB.prepare('select weighted_score from trace_stats where project_id = ? order by created_at')
        .bind(p.id)
        .all<{ weighted_score: number }>();
      expect(results.map((r) => r.weighted_score)).toEqual([0.5, 0.3]);
      return Object.keys(await layer(p, 'replay')).sort();
    }
    // Both good by the default line (0.3); only the click scores clearly enough to replay.
    expect(await replayed({})).toEqual([clicked]);
    // A team that calls an answer good only from 0.6 replays neither.
    expect(await replayed({ goodTraceScore: 0.6 })).toEqual([]);
  });

  it('builds the variant and conflict layers from the labelled held-out questions only', async () => {
    const p = await newProject();
    const [asked, split] = heldOutQueries(2) as [string, string];
    const first = answer(asked, 'sa', 60_000);
    const reworded = answer(wordings('how long do I have to return an opened item', 1)[0]!, 'sa', 55_000);
    // Re-asked, in another session, in words the model trains on: not a variant, or the gate would score the model on what it learnt.
    const again = answer(asked, 'sd', 58_000);
    const trained = answer(wordings('when can I send back an opened item', 1, false)[0]!, 'sd', 54_000);
    const liked = answer(split, 'sb', 50_000);
    const disliked = answer(split, 'sc', 40_000);
    await send(
      p,
      [first, reworded, again, trained, liked, disliked],
      [
        { traceId: first.traceId, sessionId: 'sa', signalType: 'wrong_source', detail: { chunkId: 'bad' } },
        {
          traceId: first.traceId,
          sessionId: 'sa',
          signalType: 'rephrase_within_session',
          detail: { nextTraceId: reworded.traceId, similarity: 0.8, gapMs: 5_000 },
        },
        {
          traceId: again.traceId,
          sessionId: 'sd',
          signalType: 'rephrase_within_session',
          detail: { nextTraceId: trained.traceId, similarity: 0.8, gapMs: 4_000 },
        },
        { traceId: liked.traceId, sessionId: 'sb', signalType: 'thumbs_up' },
        { traceId: disliked.traceId, sessionId: 'sc', signalType: 'thumbs_down' },
      ],
    );
    const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const counts = summary.runs[0]!.stages.find((s) => s.name === 'evals')!.counts;

    expect(await layer(p, 'variant')).toEqual({ [reworded.query]: { judgements: { bad: 0 }, source: 'rephrase' } });
    expect(await layer(p, 'conflict')).toEqual({ [split]: { judgements: {}, source: 'split feedback' } });
    expect(counts).toMatchObject({ echo: 1, variant: 1, conflict: 1 });
  });

  it('gives every layer that lists a question the labels the build first read for it', async () => {
    const p = await newProject();
    const [asked] = heldOutQueries(1) as [string];
    const first = answer(asked, 'sa', 60_000);
    const reworded = answer(wordings('how long do I have to return an opened item', 1)[0]!, 'sa', 55_000);
    await send(
      p,
      [first, reworded],
      [
        { traceId: first.traceId, sessionId: 'sa', signalType: 'wrong_source', detail: { chunkId: 'bad' } },
        {
          traceId: first.traceId,
          sessionId: 'sa',
          signalType: 'rephrase_within_session',
          detail: { nextTraceId: reworded.traceId, similarity: 0.8, gapMs: 5_000 },
        },
      ],
    );
    const night = Date.now() + 1_000;
    const options = { projects: [p.id], tracesPerSlice: 1 };
    const evalsStage = STAGES.findIndex((s) => s.name === 'evals');
    // Slice by slice until the echo layer is done and the variant layer is next.
    for (;;) {
      const run = await env.DB.prepare('select stage, cursor from loop_runs where project_id = ?').bind(p.id).first<{ stage: number; cursor: string | null }>();
      if (run?.stage === evalsStage && run.cursor && (JSON.parse(run.cursor) as { layer: string }).layer !== 'echo') break;
      expect((await runNightly(env, night, { ...options, maxSlices: 1 })).done).toBe(false);
    }
    // The flag goes between the layers: the variant layer still takes what echo read.
    await env.DB.prepare("delete from feedback_events where project_id = ? and signal_type = 'wrong_source'").bind(p.id).run();
    expect((await runNightly(env, night, options)).done).toBe(true);

    expect(await layer(p, 'echo')).toEqual({ [asked]: { judgements: { bad: 0 }, source: 'feedback' } });
    expect(await layer(p, 'variant')).toEqual({ [reworded.query]: { judgements: { bad: 0 }, source: 'rephrase' } });
  });

  it('reads labels afresh for each build and keeps none once the sets are written', async () => {
    const p = await newProject();
    const [query] = heldOutQueries(1) as [string];
    const t = answer(query, 'sa', 60_000);
    await send(p, [t], [{ traceId: t.traceId, sessionId: 'sa', signalType: 'wrong_source', detail: { chunkId: 'bad' } }]);
    // What a build cut short on an earlier night read.
    await env.DB.prepare('insert into eval_labels (project_id, query_key, judgements, sources) values (?, ?, ?, ?)')
      .bind(p.id, queryKey(query), JSON.stringify({ good: 1 }), JSON.stringify(['review']))
      .run();
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });

    expect(await layer(p, 'echo')).toEqual({ [query]: { judgements: { bad: 0 }, source: 'feedback' } });
    expect(await env.DB.prepare('select count(*) as n from eval_labels where project_id = ?').bind(p.id).first('n')).toBe(0);
  });

  it("leaves out of the eval set a reviewer's verdict against the mining that the users do not back", async () => {
    const p = await newProject();
    const [query] = heldOutQueries(1) as [string];
    const shown = (ids: string[]) =>
      ids.map((chunkId, i) => ({ chunkId, sourceDocId: `${chunkId}.md`, score: 0.9 - i / 10, rank: i + 1, text: `${chunkId} text` }));
    const bad = trace({ query, retrievedChunks: shown(['top', 'second']), rerankedChunks: undefined, sessionId: 'sa', createdAt: Date.now() - 60_000 });
    const good = trace({ query, retrievedChunks: shown(['kept']), rerankedChunks: undefined, sessionId: 'sb', createdAt: Date.now() - 50_000 });
    const unsure = trace({ query, retrievedChunks: shown(['other']), rerankedChunks: undefined, sessionId: 'sc', createdAt: Date.now() - 40_000 });
    await send(
      p,
      [bad, good, unsure],
      [
        { traceId: bad.traceId, sessionId: 'sa', signalType: 'thumbs_down' },
        { traceId: unsure.traceId, sessionId: 'sc', signalType: 'thumbs_down' },
        { traceId: good.traceId, sessionId: 'sb', signalType: 'thumbs_up' },
        { traceId: good.traceId, sessionId: 'sb', signalType: 'copy_source', detail: { chunkId: 'kept', chars: 40 } },
      ],
    );
    const night = Date.now() + 1_000;
    await runNightly(env, night, { projects: [p.id] });
    const admin = bearer(p.keys.admin);
    const { items } = (await (await call('/v1/admin/review?limit=50', { headers: admin })).json()) as {
      items: { id: string; candidate: string; chunk: { chunkId: string } }[];
    };
    const mined = Object.fromEntries(items.map((i) => [i.chunk.chunkId, i]));
    expect(Object.fromEntries(items.map((i) => [i.chunk.chunkId, i.candidate]))).toEqual({
      top: 'negative',
      second: 'negative',
      kept: 'positive',
      other: 'negative',
    });
    // One answer against the mining with no users behind it, one against the mining and the users, one that agrees, one unsure (no label).
    for (const [chunkId, verdict] of [
      ['top', 'relevant'],
      ['kept', 'not_relevant'],
      ['second', 'not_relevant'],
      ['other', 'unclear'],
    ] as const)
      expect((await call(`/v1/admin/review/${mined[chunkId]!.id}`, { method: 'POST', headers: admin, json: { verdict } })).status).toBe(200);
    // A week on, the next eval set is built with the answers.
    await runNightly(env, night + 7 * 86_400_000, { projects: [p.id] });

    const { results } = await env.DB.prepare(
      "select judgements, source from eval_items where project_id = ? and layer = 'echo' and version = (select max(version) from eval_sets where project_id = ?)",
    )
      .bind(p.id, p.id)
      .all<{ judgements: string; source: string }>();
    expect(results.map((r) => ({ ...r, judgements: JSON.parse(r.judgements) }))).toEqual([{ judgements: { second: 0, kept: 1 }, source: 'review+feedback' }]);
  });

  // Dozens of one-trace slices: seconds on a busy machine.
  it('ends a run cut after every slice, or made to read a slice again, where one uncut run ends', { timeout: 30_000 }, async () => {
    // Per held-out question: a good answer read and copied, a bad one flagged, and a re-asked wording of it.
    const seed = async (p: Project) => {
      const traces: TraceInput[] = [];
      const events: Parameters<typeof event>[0][] = [];
      const rewordings = wordings('in other words, refunds question', 6);
      for (const [i, query] of heldOutQueries(6).entries()) {
        const good = answer(query, `good-${i}`, 60_000 - i * 1_000);
        const bad = answer(query, `bad-${i}`, 50_000 - i * 1_000);
        const reworded = answer(rewordings[i]!, `bad-${i}`, 40_000 - i * 1_000);
        traces.push(good, bad, reworded);
        events.push(
          { traceId: good.traceId, sessionId: `good-${i}`, signalType: 'thumbs_up' },
          { traceId: good.traceId, sessionId: `good-${i}`, signalType: 'copy_source', detail: { chunkId: 'good', chars: 40 } },
          { traceId: bad.traceId, sessionId: `bad-${i}`, signalType: 'thumbs_down' },
          { traceId: bad.traceId, sessionId: `bad-${i}`, signalType: 'wrong_source', detail: { chunkId: 'bad' } },
          {
            traceId: bad.traceId,
            sessionId: `bad-${i}`,
            signalType: 'rephrase_within_session',
            detail: { nextTraceId: reworded.traceId, similarity: 0.8, gapMs: 5_000 },
          },
        );
      }
      await send(p, traces, events);
    };
    const evalsOf = async (p: Project) => ({
      items: (
        await env.DB.prepare(
          `select i.layer, i.position, i.query, i.query_key, t.query as trace_query, i.judgements, i.source from eval_items i
           join traces t on t.project_id = i.project_id and t.trace_id = i.trace_id where i.project_id = ? order by i.layer, i.position`,
        )
          .bind(p.id)
          .all()
      ).results,
      sets: (await env.DB.prepare('select layer, version, items from eval_sets where project_id = ? order by layer').bind(p.id).all()).results,
    });
    // Slices of one trace read pages of one question: the stage takes several slices.
    const options = { tracesPerSlice: 1 };
    // Both projects seeded first: the night's window ends before the cut run starts.
    const [uncut, cut] = [await newProject(), await newProject()];
    await seed(uncut);
    await seed(cut);
    const night = Date.now() + 1_000;
    const whole = await runNightly(env, night, { projects: [uncut.id], ...options });
    expect(whole.done).toBe(true);
    const evalsLine = whole.runs[0]!.stages.find((s) => s.name === 'evals')!;
    expect(evalsLine.slices).toBeGreaterThan(3);
    // Replay takes both answers of each question.
    expect(evalsLine.counts).toEqual({ echo: 6, variant: 6, conflict: 6, replay: 12 });

    // Every other evals slice is read twice, as when an invocation stops after storing the items but before the cursor.
    const evalsStage = STAGES.findIndex((s) => s.name === 'evals');
    const where = () =>
      env.DB.prepare('select stage, cursor from loop_runs where project_id = ?').bind(cut.id).first<{ stage: number; cursor: string | null }>();
    let calls = 0;
    let reread = 0;
    for (;;) {
      const before = await where();
      if ((await runNightly(env, night, { projects: [cut.id], ...options, maxSlices: 1 })).done) break;
      calls++;
      if (before?.stage === evalsStage && calls % 2 === 0) {
        await env.DB.prepare('update loop_runs set stage = ?, cursor = ? where project_id = ?').bind(before.stage, before.cursor, cut.id).run();
        reread++;
      }
    }
    expect(calls).toBeGreaterThan(evalsLine.slices);
    expect(reread).toBeGreaterThan(1);
    const expected = await evalsOf(uncut);
    expect(expected.items).toHaveLength(30);
    expect(await evalsOf(cut)).toEqual(expected);
  });
});
