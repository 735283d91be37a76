/**
 * Page cost of 200 answers, each wrapped in the widget, in headless Chromium: main-thread
 * scripting time and JS heap per widget, and the time from a thumbs click to the frame that
 * shows it.
 */
import type { CDPSession, Page } from 'playwright-core';
import { clickToFrame } from '../tests/e2e/click-to-frame.ts';
import type { Harness } from './browser-harness.ts';
import { median, type Row, row } from './stats.ts';

const ANSWERS = 200;
const RUNS = 5;
const CLICKS = 30;

async function metric(cdp: CDPSession, name: string): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === name)!.value;
}

async function addAnswers(page: Page, from: number, count: number) {
  await page.evaluate(
    async ([from, count]) => {
      const add = (window as any).addAnswer;
      const done: Promise<unknown>[] = [];
      for (let i = from; i < from + count; i++) done.push(add({ traceId: `page-${Date.now()}-${i}`, sessionId: `s-${i}` }));
      await Promise.all(done);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    },
    [from, count] as const,
  );
}

/** Time from a click on a thumbs button to the start of the frame that paints its pressed state. */
async function clickToPressedFrame(page: Page, index: number): Promise<number> {
  const { ms, pressed } = await clickToFrame(page, 'rag-feedback', index);
  if (!pressed) throw new Error(`widget ${index}: the frame after the click does not show it pressed`);
  return ms;
}

export async function widgetPageBench(h: Harness): Promise<Row[]> {
  const scripting: number[] = [];
  const heap: number[] = [];
  const clicks: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { context, page } = await h.openHost({ loadConfig: false });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await addAnswers(page, 0, 1); // the first answer loads the lazy parts; measure the steady cost
    await page.waitForTimeout(300);
    await cdp.send('HeapProfiler.collectGarbage');
    const script0 = await metric(cdp, 'ScriptDuration');
    const heap0 = await metric(cdp, 'JSHeapUsedSize');
    await addAnswers(page, 1, ANSWERS);
    scripting.push((((await metric(cdp, 'ScriptDuration')) - script0) * 1000) / ANSWERS);
    await cdp.send('HeapProfiler.collectGarbage');
    heap.push(((await metric(cdp, 'JSHeapUsedSize')) - heap0) / 1024 / ANSWERS);
    const times: number[] = [];
    for (let i = 0; i < CLICKS; i++) times.push(await clickToPressedFrame(page, 1 + i * 5));
    clicks.push(median(times));
    await context.close();
  }
  return [
    row('widget-page', `main-thread scripting per widget (${ANSWERS} answers)`, 'ms', scripting, '<= 1'),
    row('widget-page', `JS heap per widget (${ANSWERS} answers)`, 'KB', heap),
    row('widget-page', 'thumbs click to the frame showing it (median of 30)', 'ms', clicks, '<= 16'),
  ];
}
