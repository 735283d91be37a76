/**
 * Offline replay: 10,000 events recorded while offline (buffered in IndexedDB), then the
 * connection comes back: time until the outbox is empty and the collector holds every event,
 * how many were lost, and how many were stored twice.
 */
import type { Harness } from './browser-harness.ts';
import { type Row, row } from './stats.ts';

const ANSWERS = 100;
const EVENTS_PER_ANSWER = 100; // 10,000 in all; within the widget's per-session limit, one session per answer
const RUNS = 3;

export async function widgetOfflineBench(h: Harness): Promise<Row[]> {
  const seconds: number[] = [];
  const lost: number[] = [];
  const duplicated: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { context, page } = await h.openHost({ loadConfig: false, transport: { flushDelayMs: 50 } });
    const traceIds = Array.from({ length: ANSWERS }, (_, i) => `offline-${run}-${Date.now()}-${i}`);
    await context.setOffline(true);
    const recorded = await page.evaluate(
      async ([traceIds, perAnswer]) => {
        const w = window as any;
        for (const [i, traceId] of traceIds.entries()) await w.addAnswer({ traceId, sessionId: `offline-session-${i}` });
        for (const el of document.querySelectorAll<any>('rag-feedback')) for (let n = 0; n < perAnswer; n++) el.reportCopy(n + 1);
        const expected = traceIds.length * perAnswer;
        while ((await w.RagFeedback.pending()) < expected) await new Promise((r) => setTimeout(r, 50));
        return w.signals.filter((e: any) => e.signalType === 'copy_answer').map((e: any) => e.eventId) as string[];
      },
      [traceIds, EVENTS_PER_ANSWER] as const,
    );
    const start = performance.now();
    await context.setOffline(false);
    await page.evaluate(async () => {
      while ((await (window as any).RagFeedback.pending()) > 0) await new Promise((r) => setTimeout(r, 50));
    });
    seconds.push((performance.now() - start) / 1000);
    const stored: string[] = [];
    for (const traceId of traceIds) {
      const res = await fetch(`${h.collector.url}/v1/traces/${traceId}`, { headers: { authorization: `Bearer ${h.collector.keys.admin}` } });
      const body = (await res.json()) as { events?: { eventId: string; signalType: string }[] };
      if (!body.events) throw new Error(`trace ${traceId}: ${res.status} ${JSON.stringify(body)}; recorded ${recorded.length}`);
      stored.push(...body.events.filter((e) => e.signalType === 'copy_answer').map((e) => e.eventId));
    }
    const storedSet = new Set(stored);
    lost.push(recorded.filter((id) => !storedSet.has(id)).length);
    duplicated.push(stored.length - storedSet.size);
    await context.close();
  }
  return [
    row('widget-offline', `replay of ${ANSWERS * EVENTS_PER_ANSWER} offline events until all stored`, 's', seconds, '<= 15'),
    row('widget-offline', 'events lost', 'events', lost, '<= 0'),
    row('widget-offline', 'events stored twice', 'events', duplicated, '<= 0'),
  ];
}
