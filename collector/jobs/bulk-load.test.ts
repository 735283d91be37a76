import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { deferIndexes, restoreIndexes } from '../storage/deferred-indexes.ts';
import { newProject, sendTraffic as send, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const definitionOf = async (name: string) =>
  (await env.DB.prepare(`select sql from sqlite_master where type = 'index' and name = ?`).bind(name).first<{ sql: string }>())?.sql ?? null;
const deferred = async (name: string) =>
  (await env.DB.prepare('select definition from deferred_indexes where name = ?').bind(name).first<{ definition: string }>())?.definition ?? null;
const AGGREGATE_INDEXES = ['trace_stats_score', 'trace_stats_query'];

async function threeAnswers() {
  const p = await newProject();
  const traces = [1, 2, 3].map(() => trace({ createdAt: Date.now() - 60_000 }));
  await send(
    p,
    traces,
    traces.map((t) => ({ traceId: t.traceId, signalType: 'thumbs_down' as const })),
  );
  return p;
}

describe('a bulk load', () => {
  it('keeps an index definition while the index is dropped, and builds it again as it was', async () => {
    const table = `bulk_probe_${crypto.randomUUID().replaceAll('-', '')}`;
    await env.DB.batch([env.DB.prepare(`create table ${table} (a text, b integer)`), env.DB.prepare(`create index ${table}_b on ${table} (a, b desc)`)]);
    const before = await definitionOf(`${table}_b`);
    expect(before).toContain('(a, b desc)');
    await env.DB.batch(deferIndexes(env.DB, [`${table}_b`]));
    expect(await definitionOf(`${table}_b`)).toBeNull();
    expect(await deferred(`${table}_b`)).toBe(before);
    // Deferring again (a slice done twice) keeps the definition it kept first.
    await env.DB.batch(deferIndexes(env.DB, [`${table}_b`]));
    expect(await deferred(`${table}_b`)).toBe(before);
    expect(await restoreIndexes(env.DB)).toBeGreaterThanOrEqual(1);
    expect(await definitionOf(`${table}_b`)).toBe(before);
    expect(await deferred(`${table}_b`)).toBeNull();
  });

  it('defers the trace aggregates\u2019 out-of-order indexes while assessing, and builds them again at its end', async () => {
    const before = await Promise.all(AGGREGATE_INDEXES.map(definitionOf));
    expect(before.every((d) => d !== null)).toBe(true);
    const p = await threeAnswers();
    const summary = await runNightly(env, Date.now() + 1_000, { projectId: p.id, bulkFromTraces: 1, tracesPerSlice: 2 });
    expect(summary.done).toBe(true);
    expect(summary.runs[0]!.stages.find((s) => s.name === 'assess')!.counts).toMatchObject({ traces: 3, deferredIndexes: 2, restoredIndexes: 2 });
    expect(await Promise.all(AGGREGATE_INDEXES.map(definitionOf))).toEqual(before);
    expect(await Promise.all(AGGREGATE_INDEXES.map(deferred))).toEqual([null, null]);
    // Below the threshold (the default, ten thousand traces) nothing is deferred.
    const small = await threeAnswers();
    const plain = await runNightly(env, Date.now() + 1_000, { projectId: small.id });
    expect(plain.runs[0]!.stages.find((s) => s.name === 'assess')!.counts).not.toHaveProperty('deferredIndexes');
  });

  it('builds them again in the next run when a run stops in the middle of a bulk load', async () => {
    const before = await Promise.all(AGGREGATE_INDEXES.map(definitionOf));
    const p = await threeAnswers();
    // Prepare's three slices, then assess's first: it defers the indexes and assesses two traces of three.
    const cut = await runNightly(env, Date.now() + 1_000, { projectId: p.id, bulkFromTraces: 1, tracesPerSlice: 2, maxSlices: 4 });
    expect(cut.runs[0]!.stage).toBe('assess');
    expect(cut.runs[0]!.stages.find((s) => s.name === 'assess')!.counts).toMatchObject({ deferredIndexes: 2 });
    // The night passes without the run continuing; the next night's run builds them in its first slice.
    const nextNight = Date.now() + 86_400_000;
    await runNightly(env, nextNight, { projectId: p.id, maxSlices: 1 });
    expect(await Promise.all(AGGREGATE_INDEXES.map(definitionOf))).toEqual(before);
    expect(await Promise.all(AGGREGATE_INDEXES.map(deferred))).toEqual([null, null]);
    expect((await runNightly(env, nextNight, { projectId: p.id })).done).toBe(true);
  });
});
