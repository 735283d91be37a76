import { describe, expect, it } from 'vitest';
import { startLocalCollector } from './local-collector.ts';
import { seed } from './seed/send.ts';

describe('npm run seed, then the nightly job', () => {
  it('fills every list of the admin API from one run', { timeout: 120_000 }, async () => {
    const collector = await startLocalCollector();
    try {
      const sent = await seed({ endpoint: collector.url, keys: collector.keys, sessions: 80, seed: 7 });
      expect(sent.traces).toBeGreaterThan(100);
      const admin = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${collector.url}/v1/admin${path}`, { ...init, headers: { authorization: `Bearer ${collector.keys.admin}` } });
        expect(res.status).toBe(200);
        return res;
      };
      // The cron, fired as wrangler documents it, runs the night's loop.
      expect((await fetch(`${collector.url}/__scheduled?cron=*/15+*+*+*+*`)).status).toBe(200);
      const runs = (await (await admin('/runs')).json()) as { runs: { status: string; stages: unknown[] }[] };
      expect(runs.runs.map((r) => r.status)).toEqual(['done']);
      // Asked again for the same night, nothing is left to do.
      const again = (await (await admin('/nightly', { method: 'POST' })).json()) as { done: boolean };
      expect(again.done).toBe(true);

      const review = (await (await admin('/review')).json()) as { items: { guess: string; evidence: string[] }[] };
      expect(review.items.length).toBeGreaterThan(5);
      expect(new Set(review.items.map((i) => i.guess)).size).toBeGreaterThan(1);
      expect(review.items.every((i) => i.evidence.length > 0)).toBe(true);

      const documents = (await (await admin('/documents')).json()) as { documents: { sourceDocId: string }[] };
      expect(documents.documents.map((d) => d.sourceDocId)).toContain('refunds.md');

      const corrections = (await (await admin('/corrections')).json()) as { owners: { corrections: unknown[] }[] };
      expect(corrections.owners.flatMap((o) => o.corrections).length).toBeGreaterThan(0);

      const worst = (await (await admin('/worst-traces')).json()) as { traces: { confidence: number }[] };
      expect(worst.traces.length).toBeGreaterThan(5);

      // Every layer of the week's eval sets, the split-feedback one included, and each exported as JSONL.
      const sets = (await (await admin('/eval-sets')).json()) as { sets: { layer: string; items: number }[] };
      expect(Object.fromEntries(sets.sets.map((x) => [x.layer, x.items > 0]))).toEqual({ echo: true, variant: true, conflict: true, replay: true });
      const echo = await (await admin('/eval-sets/echo')).text();
      expect(
        echo
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).layer),
      ).toContain('echo');

      const health = (await (await admin('/health')).json()) as { latest: { metrics: Record<string, number | null> } };
      expect(health.latest.metrics.traces).toBeGreaterThan(100);
      expect(health.latest.metrics.effectiveRate).toBeLessThan(1);
    } finally {
      await collector.stop();
    }
  });
});
