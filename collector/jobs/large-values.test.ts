import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

/** Text of about `chars` characters, different for each `seed`, of distinct words (so its question key is as long). */
const long = (seed: number, chars: number) =>
  Array.from({ length: Math.ceil(chars / 8) }, (_, j) => `w${seed.toString(36)}z${j.toString(36)}`)
    .join(' ')
    .slice(0, chars);

describe('a night over long texts', () => {
  // D1 refuses a bound value over 2 MB: a stage writing what it read as one JSON value would fail
  // on every call, and the night would never get past it.
  it('routes 600 long corrections on long questions and builds eval sets of their keys, in statements D1 accepts, and finishes', {
    timeout: 120_000,
  }, async () => {
    const p = await newProject();
    const traces = Array.from({ length: 600 }, (_, i) =>
      trace({ traceId: `t-${i}`, sessionId: `s-${i}`, query: long(i, MAX_QUERY_CHARS - 100), createdAt: Date.now() - 60_000 }),
    );
    for (let i = 0; i < traces.length; i += 50) await sendTraffic(p, traces.slice(i, i + 50));
    await sendTraffic(
      p,
      [],
      traces.map((t, i) => ({
        eventId: `c-${i}`,
        traceId: t.traceId,
        sessionId: t.sessionId!,
        signalType: 'correction' as const,
        detail: { text: long(i, 3_900) },
      })),
    );
    const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id], isolate: true });
    expect(summary.runs[0]!.error).toBeUndefined();
    expect(summary.runs[0]!.status).toBe('done');
    const routed = await env.DB.prepare(`select count(*) as n from corrections where project_id = ? and status = 'open'`).bind(p.id).first<{ n: number }>();
    expect(routed!.n).toBe(600);
    const stages = summary.runs[0]!.stages.map((st) => st.name);
    expect(stages).toContain('evals');
  });

  it('assesses a slice of 2,000 answers to long questions in Chinese, whose keys come to megabytes, and finishes', { timeout: 180_000 }, async () => {
    const p = await newProject();
    // 400 characters each, different for every question: its key is 500 characters of bigrams, about 1.2 KB.
    const chinese = (seed: number) => Array.from({ length: 400 }, (_, j) => String.fromCodePoint(0x4e00 + ((seed * 401 + j * 7) % 20_000))).join('');
    const traces = Array.from({ length: 2_000 }, (_, i) =>
      trace({ traceId: `zh-${i}`, sessionId: `zs-${i}`, query: chinese(i), createdAt: Date.now() - 60_000 }),
    );
    for (let i = 0; i < traces.length; i += 50)
      await sendTraffic(
        p,
        traces.slice(i, i + 50),
        traces.slice(i, i + 50).map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_up' as const })),
      );
    const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id], isolate: true });
    expect(summary.runs[0]!.error).toBeUndefined();
    expect(summary.runs[0]!.status).toBe('done');
    const assessed = await env.DB.prepare('select count(*) as n from trace_stats where project_id = ? and trusted_signals > 0')
      .bind(p.id)
      .first<{ n: number }>();
    expect(assessed!.n).toBe(2_000);
  });
});
