import { expect, it } from 'vitest';
import { startStaticServer } from '../static-server.ts';
import { callWidget, collector, copyText, eventually, keys, newTraceId, setVisibility, site, useBrowser, widget } from './helpers.ts';

const browser = useBrowser();

it('a plain HTML page with one <script> records every signal into the collector, offline included', { timeout: 90_000 }, async () => {
  const context = await browser().newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const [first, second] = [newTraceId('plain1'), newTraceId('plain2')];
  const params = new URLSearchParams({ first, second, session: newTraceId('session'), endpoint: collector(), key: keys().write });
  await page.goto(`${site()}/tests/e2e/pages/plain.html?${params}`);
  const a = widget(page, first);
  const b = widget(page, second);
  await a.getByRole('button', { name: 'Helpful', exact: true }).waitFor();

  // Copies of the answer and of a source.
  for (const selector of ['p.answer', 'a[data-chunk-id="chunk-2"]']) await copyText(page, first, selector);
  // A citation opened, read elsewhere, and come back from.
  await a.locator('a[data-chunk-id="chunk-1"]').click();
  await setVisibility(page, 'hidden');
  await page.waitForTimeout(300);
  await setVisibility(page, 'visible');
  // Explicit feedback: a vote flipped, a reason, a wrong source, a correction.
  await a.getByRole('button', { name: 'Helpful', exact: true }).click();
  await page.waitForTimeout(900);
  await a.getByRole('button', { name: 'Not helpful' }).click();
  await a.getByRole('button', { name: 'Wrong source' }).click();
  await a.getByRole('button', { name: /Flag as wrong source: \[2\]/ }).click();
  await a.getByRole('button', { name: 'Close' }).click();
  // Offline from here: a regenerate and a correction wait in IndexedDB.
  await context.setOffline(true);
  await callWidget(page, second, 'reportRegenerate');
  await b.getByRole('button', { name: 'Not helpful' }).click();
  await b.getByRole('button', { name: 'Suggest a correction' }).click();
  await b.getByLabel('What should the answer say?').fill('30 days for members.');
  await b.getByRole('button', { name: 'Send' }).click();
  await page.waitForTimeout(300);
  await context.setOffline(false);
  // Leaving the page: answer dwell and web vitals go by beacon.
  await page.waitForTimeout(1_200);
  await page.goto('about:blank');

  const firstTypes = await eventually(
    first,
    (ev) => {
      const types = new Set(ev.map((e) => e.signalType));
      for (const t of [
        'copy_answer',
        'copy_source',
        'citation_click',
        'citation_dwell',
        'thumbs_up',
        'thumbs_down',
        'attribution',
        'wrong_source',
        'rephrase_within_session',
        'answer_dwell',
      ]) {
        expect(types.has(t), t).toBe(true);
      }
      return ev;
    },
    20_000,
  );
  expect(firstTypes.filter((e) => e.signalType.startsWith('thumbs') && !e.superseded).map((e) => e.signalType)).toEqual(['thumbs_down']);
  await eventually(
    second,
    (ev) => {
      const types = new Set(ev.map((e) => e.signalType));
      for (const t of ['regenerate', 'thumbs_down', 'correction', 'web_vitals']) expect(types.has(t), t).toBe(true);
    },
    20_000,
  );
  expect(errors).toEqual([]);
  await context.close();
});

it('records a bounce from a plain page left at once', async () => {
  const context = await browser().newContext();
  const page = await context.newPage();
  const [first, second] = [newTraceId('b1'), newTraceId('b2')];
  await page.goto(
    `${site()}/tests/e2e/pages/plain.html?${new URLSearchParams({ first, second, session: newTraceId('s'), endpoint: collector(), key: keys().write })}`,
  );
  await widget(page, first).getByRole('button', { name: 'Helpful', exact: true }).waitFor();
  await page.goto('about:blank');
  await eventually(first, (ev) => expect(ev.filter((e) => e.signalType === 'bounce')).toHaveLength(1));
  await context.close();
});

it('works, in Chinese, on a page in a legacy encoding whose server sends the script without a charset', async () => {
  // Served as many servers do: no charset on the script, a page declaring windows-1252.
  const legacy = await startStaticServer((path) =>
    path.endsWith('.js') ? { 'content-type': 'text/javascript' } : { 'content-type': 'text/html; charset=windows-1252' },
  );
  const context = await browser().newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const trace = newTraceId('legacy');
    const params = new URLSearchParams({ trace, session: newTraceId('session'), endpoint: 'http://127.0.0.1:9', key: keys().write });
    await page.goto(`${legacy.url}/tests/e2e/pages/legacy-encoding.html?${params}`);
    // The Chinese labels read right, and the e-mail pattern's Latin letters did not break the script.
    await widget(page, trace).getByRole('button', { name: '没有帮助' }).click();
    await widget(page, trace).getByRole('dialog', { name: '哪里有问题？' }).waitFor();
    expect(await widget(page, trace).getByRole('button', { name: '没有帮助' }).getAttribute('aria-pressed')).toBe('true');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    await legacy.close();
  }
});
