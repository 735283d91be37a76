import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickToFrame } from './click-to-frame.ts';
import {
  addAnswer,
  callWidget,
  collector,
  eventually,
  FAST,
  flush,
  keys,
  newTraceId,
  ofType,
  openHost,
  pending,
  setVisibility,
  site,
  useBrowser,
  widget,
} from './helpers.ts';
import { eventsUpToMarker } from './markers.ts';
import { watchOutput } from './page-output.ts';

const browser = useBrowser();

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axe(page: Page) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

/** Counts, on the page, the widget's requests for the project's config (an init script: before the widget loads). */
function countConfigFetches() {
  const fetch = window.fetch;
  const w = window as unknown as { configFetches: number };
  w.configFetches = 0;
  window.fetch = (input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/v1/config')) w.configFetches++;
    return fetch(input, init);
  };
}

const configFetches = (page: Page) => page.evaluate(() => (window as unknown as { configFetches: number }).configFetches);

describe('accessibility (axe-core in Chromium)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`finds no violation in the ${scheme} theme, with the popover and a prompt open`, async () => {
      const context = await browser().newContext({ colorScheme: scheme });
      const prompts = [{ id: 'helpful', trigger: 'large_copy', text: 'Was this helpful?' }];
      const { page } = await openHost(browser(), { context, options: { config: { prompts, thresholds: { largeCopyChars: 1 } } } });
      // A dark page says so with color-scheme, which the widget follows.
      if (scheme === 'dark')
        await page.addStyleTag({ content: ':root { color-scheme: dark } body { background: #0d1117; color: #e6edf3 } a { color: #4493f8 }' });
      const [a, b] = [newTraceId('axe'), newTraceId('axe')];
      await addAnswer(page, { traceId: a });
      await addAnswer(page, { traceId: b });
      await widget(page, a).getByRole('button', { name: 'Not helpful' }).click();
      await widget(page, a).getByRole('dialog').waitFor();
      await callWidget(page, b, 'reportCopy', 50);
      await widget(page, b).getByRole('group', { name: 'Was this helpful?' }).waitFor();
      expect(await axe(page)).toEqual([]);
      await widget(page, a).getByRole('button', { name: 'Suggest a correction' }).click();
      await widget(page, a).getByLabel('What should the answer say?').waitFor();
      expect(await axe(page)).toEqual([]);
      await context.close();
    });
  }
});

describe('a good guest on the host page', () => {
  it("follows the page's colour scheme rather than the system's, and leaves the answer's own size and colour alone", async () => {
    const context = await browser().newContext({ colorScheme: 'dark' });
    const { page } = await openHost(browser(), { context });
    await page.addStyleTag({ content: ':root { color-scheme: light } body { color: rgb(10, 20, 30); font-size: 16px }' });
    const traceId = newTraceId('scheme');
    await addAnswer(page, { traceId, html: '<p id="answer">Opened items can be returned within 14 days.</p>' });
    const el = widget(page, traceId);
    const style = (selector: string) =>
      el
        .locator(selector)
        .first()
        .evaluate((n) => ({ color: getComputedStyle(n).color, fontSize: getComputedStyle(n).fontSize }));
    expect(await style('#answer')).toEqual({ color: 'rgb(10, 20, 30)', fontSize: '16px' });
    // The light theme's text colour on a light page, though the system is dark; the widget's own size.
    expect(await style('button')).toEqual({ color: 'rgb(31, 35, 40)', fontSize: '14px' });
    await page.addStyleTag({ content: ':root { color-scheme: dark }' });
    expect((await style('button')).color).toBe('rgb(230, 237, 243)');
    await context.close();
  });

  it("takes the config, locale and endpoint of a configure() that runs after the answers in the page's HTML are upgraded", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const output = watchOutput(page);
    const options = { locale: 'zh-CN', config: { rating: true }, transport: { flushDelayMs: 50 } };
    await page.goto(
      `${site()}/tests/e2e/pages/history.html?${new URLSearchParams({ endpoint: collector(), key: keys().write, options: JSON.stringify(options) })}`,
    );
    await page.waitForFunction(() => (window as any).ready === true);
    const el = page.locator('rag-feedback');
    await el.getByRole('button', { name: '4 星（满分 5 星）' }).click();
    await eventually('history-1', (ev) => expect(ofType(ev, 'rating').map((e) => e.detail)).toEqual([{ stars: 4 }]));
    expect(await output.settled()).toEqual({ errors: [], console: [] });
    await context.close();
  });

  it('loads the config again when an answer is pointed at another write key or endpoint', async () => {
    const { page, context, output } = await openHost(browser());
    const otherKey = 'rf_w_other_project';
    // The other key's project asks for ratings; the page's own project for thumbs.
    await context.route(`${collector()}/v1/config`, (route) =>
      route.request().method() === 'GET' && route.request().headers().authorization === `Bearer ${otherKey}`
        ? route.fulfill({
            status: 200,
            headers: { 'access-control-allow-origin': site(), 'content-type': 'application/json' },
            body: JSON.stringify({ rating: true }),
          })
        : route.continue(),
    );
    const traceId = newTraceId('rekeyed');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).waitFor();
    await page.evaluate(([id, key]) => document.querySelector(`rag-feedback[trace-id="${id}"]`)!.setAttribute('write-key', key!), [traceId, otherKey]);
    await el.getByRole('button', { name: '4 of 5 stars' }).waitFor();
    // Back to the page's key, through another spelling of the same endpoint: thumbs again.
    await page.evaluate(
      ([id, endpoint]) => {
        const answer = document.querySelector(`rag-feedback[trace-id="${id}"]`)!;
        answer.removeAttribute('write-key');
        answer.setAttribute('endpoint', endpoint!);
      },
      [traceId, `${collector()}/`],
    );
    await el.getByRole('button', { name: 'Not helpful' }).waitFor();
    expect(await output.settled()).toEqual({ errors: [], console: [] });
    await context.close();
  });

  it("asks for the project's config again once the connection is back, when the page opened offline", async () => {
    const { page, context } = await openHost(browser());
    let online = false;
    let asked = 0;
    // The project asks for ratings; the page's default is thumbs.
    await context.route(`${collector()}/v1/config`, (route) => {
      asked++;
      return online
        ? route.fulfill({
            status: 200,
            headers: { 'access-control-allow-origin': site(), 'content-type': 'application/json' },
            body: JSON.stringify({ rating: true }),
          })
        : route.abort('internetdisconnected');
    });
    const traceId = newTraceId('config-offline');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await expect.poll(() => asked).toBe(1);
    await el.getByRole('button', { name: 'Not helpful' }).waitFor();
    online = true;
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await el.getByRole('button', { name: '4 of 5 stars' }).waitFor();
    await context.close();
  });

  it('checks rephrases, and asks for the config again with the next answer, when a request for the config is left unanswered (a proxy that hangs)', async () => {
    const context = await browser().newContext();
    await context.addInitScript(countConfigFetches);
    await context.route(`${collector()}/v1/config`, () => undefined); // never answered
    // Given up as a batch of events is: after `transport.timeoutMs`.
    const { page } = await openHost(browser(), { context, options: { transport: { ...FAST.transport, timeoutMs: 500 } } });
    const [first, second, third] = [newTraceId('config-hangs'), newTraceId('config-hangs'), newTraceId('config-hangs')];
    await addAnswer(page, { traceId: first, query: 'What is the refund window for opened items?' });
    await addAnswer(page, { traceId: second, query: 'refund window for opened items' });
    await eventually(first, (ev) => expect(ofType(ev, 'rephrase_within_session').map((e) => e.detail.nextTraceId)).toEqual([second]));
    expect(await configFetches(page)).toBe(1);
    await addAnswer(page, { traceId: third });
    await expect.poll(() => configFetches(page)).toBe(2);
    await context.close();
  });

  it('records nothing and fetches no config under a write key a request header cannot carry (a placeholder copied whole), and says so in debug output', async () => {
    const context = await browser().newContext();
    await context.addInitScript(countConfigFetches);
    const { page, output } = await openHost(browser(), { context, options: { writeKey: 'rfw_…', debug: true } });
    const traceId = newTraceId('bad-key');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Incomplete' }).click();
    await expect.poll(() => el.getByRole('dialog').count()).toBe(0);
    expect(await el.getByText('Thank you for your feedback.').count()).toBe(0);
    expect(await pending(page)).toBe(0);
    expect(await configFetches(page)).toBe(0);
    const { errors, console } = await output.settled();
    expect(errors).toEqual([]);
    expect(console.filter((m) => m.startsWith('warning: [rag-feedback] not recorded: set a valid endpoint and write key'))).not.toEqual([]);
    await context.close();
  });

  it('reads a write key without the spaces and line break around it, as the collector does', async () => {
    const { context, page, output } = await openHost(browser(), { options: { writeKey: ` ${keys().write}\n` } });
    const traceId = newTraceId('spaced-key');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    await eventually(traceId, (events) => expect(events.map((e) => e.signalType)).toContain('thumbs_up'));
    expect((await output.settled()).errors).toEqual([]);
    await context.close();
  });

  it('reads an endpoint without the spaces and line break around it, from configure() or the attribute', async () => {
    const { context, page, output } = await openHost(browser(), { options: { endpoint: ` ${collector()}\n` } });
    const traceId = newTraceId('spaced-endpoint');
    const other = newTraceId('spaced-endpoint-attr');
    await addAnswer(page, { traceId });
    await addAnswer(page, { traceId: other, attrs: { endpoint: `${collector()}/ ` } });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    await widget(page, other).getByRole('button', { name: 'Helpful', exact: true }).click();
    await eventually(traceId, (events) => expect(events.map((e) => e.signalType)).toContain('thumbs_up'));
    await eventually(other, (events) => expect(events.map((e) => e.signalType)).toContain('thumbs_up'));
    expect((await output.settled()).errors).toEqual([]);
    await context.close();
  });

  it.each(['iife', 'esm'] as const)('takes the page-wide options through either copy of the widget loaded twice (%s build)', async (build) => {
    const context = await browser().newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const output = watchOutput(page);
    await page.goto(`${site()}/tests/e2e/pages/blank.html`);
    const traceId = newTraceId(`twice-${build}`);
    // The second copy from another URL (a cache-busting query), as two bundles of one site may load it.
    const sameApi = await page.evaluate(
      async ({ build, site, endpoint, writeKey, traceId }) => {
        type Api = { configure(o: object): void; Element: unknown };
        const load = (query: string): Promise<Api> =>
          build === 'iife'
            ? new Promise((resolve, reject) => {
                const s = document.createElement('script');
                s.src = `${site}/dist/widget/rag-feedback.iife.js${query}`;
                s.onload = () => resolve((window as unknown as { RagFeedback: Api }).RagFeedback);
                s.onerror = reject;
                document.head.append(s);
              })
            : // Written out for the page: the test runner would rewrite an import() of its own.
              (new Function('url', 'return import(url)')(`${site}/dist/widget/rag-feedback.js${query}`) as Promise<{ RagFeedback: Api }>).then(
                (m) => m.RagFeedback,
              );
        const first = await load('');
        const second = await load('?copy=2');
        // The page configures through the API it got last.
        second.configure({ endpoint, writeKey, transport: { flushDelayMs: 50 } });
        const el = document.createElement('rag-feedback');
        el.setAttribute('trace-id', traceId);
        el.innerHTML = '<p>Opened items can be returned within 14 days.</p>';
        document.body.append(el);
        return second === first && second.Element === customElements.get('rag-feedback');
      },
      { build, site: site(), endpoint: collector(), writeKey: keys().write, traceId },
    );
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    expect(sameApi).toBe(true);
    expect(await output.settled()).toEqual({ errors: [], console: [] });
    await context.close();
  });

  it('can be subclassed through RagFeedback.Element: a subclass under a tag of its own records and announces as the widget does', async () => {
    const { context, page, output } = await openHost(browser());
    const traceId = newTraceId('subclass');
    const sameClass = await page.evaluate(
      async ({ site, traceId }) => {
        type Exports = { RagFeedback: { Element: typeof HTMLElement }; RagFeedbackElement: typeof HTMLElement };
        // The module the page loaded, imported as a host's bundle would (written out for the page: the test runner would rewrite an import() of its own).
        const { RagFeedback, RagFeedbackElement } = (await new Function('url', 'return import(url)')(`${site}/dist/widget/rag-feedback.js`)) as Exports;
        customElements.define('acme-feedback', class extends RagFeedback.Element {});
        const el = document.createElement('acme-feedback');
        el.setAttribute('trace-id', traceId);
        el.innerHTML = '<p>Opened items can be returned within 14 days.</p>';
        el.addEventListener('rf-vote', (e) => document.body.setAttribute('data-voted', (e as CustomEvent<{ vote: string }>).detail.vote));
        document.body.append(el);
        return RagFeedback.Element === RagFeedbackElement && RagFeedbackElement === customElements.get('rag-feedback');
      },
      { site: site(), traceId },
    );
    expect(sameClass).toBe(true);
    await page.locator(`acme-feedback[trace-id="${traceId}"]`).getByRole('button', { name: 'Helpful', exact: true }).click();
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    expect(await page.locator('body').getAttribute('data-voted')).toBe('up');
    expect(await output.settled()).toEqual({ errors: [], console: [] });
    await context.close();
  });

  it("keeps a project config refused with a 401 for the page's life: one fetch and one warning, whatever answers follow or the connection does", async () => {
    const context = await browser().newContext();
    await context.addInitScript(countConfigFetches);
    const { page, output } = await openHost(browser(), { context, options: { debug: true } });
    await context.route(`${collector()}/v1/config`, (route) =>
      route.fulfill({ status: 401, headers: { 'access-control-allow-origin': site(), 'content-type': 'application/json' }, body: '{"error":"bad key"}' }),
    );
    const [first, second] = [newTraceId('config-401'), newTraceId('config-401')];
    await addAnswer(page, { traceId: first });
    const warnings = async () => (await output.settled()).console.filter((m) => m.includes('config not loaded'));
    await expect.poll(warnings).toHaveLength(1);
    await addAnswer(page, { traceId: second });
    await widget(page, second).getByRole('button', { name: 'Not helpful' }).waitFor();
    expect(await configFetches(page)).toBe(1);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    expect(await configFetches(page)).toBe(1);
    expect(await warnings()).toHaveLength(1);
    await context.close();
  });

  it('neither fetches the config again nor re-renders the answers when the connection comes back after it loaded fine', async () => {
    const context = await browser().newContext();
    await context.addInitScript(countConfigFetches);
    const { page } = await openHost(browser(), { context });
    await context.route(`${collector()}/v1/config`, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'access-control-allow-origin': site(), 'content-type': 'application/json' },
        body: JSON.stringify({ rating: true }),
      }),
    );
    const traceId = newTraceId('config-online');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: '4 of 5 stars' }).waitFor();
    // An update asked for as the event is handled is a re-render of the answer.
    const updates = await page.evaluate((id) => {
      const el = document.querySelector(`rag-feedback[trace-id="${id}"]`) as HTMLElement & { requestUpdate(): void };
      const requestUpdate = el.requestUpdate;
      let asked = 0;
      el.requestUpdate = function (...args: []) {
        asked++;
        return requestUpdate.apply(this, args);
      };
      dispatchEvent(new Event('online'));
      el.requestUpdate = requestUpdate;
      return asked;
    }, traceId);
    expect(updates).toBe(0);
    expect(await configFetches(page)).toBe(1);
    await context.close();
  });

  it('works under a strict Content-Security-Policy with a nonce (single-file script)', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    const output = watchOutput(page);
    const traceId = newTraceId('csp');
    await page.goto(`${site()}/tests/e2e/pages/csp.html?${new URLSearchParams({ endpoint: collector(), key: keys().write, trace: traceId })}`);
    await page.waitForFunction(() => (window as any).ready === true);
    const el = widget(page, traceId);
    await el.getByRole('button', { name: '没有帮助' }).click();
    await el.getByRole('button', { name: '信息不完整' }).click();
    await eventually(traceId, (ev) => expect(ofType(ev, 'attribution').map((e) => e.detail)).toEqual([{ reason: 'incomplete' }]));
    // Styles applied (not blocked): the popover has its border.
    expect(await el.locator('.panel').evaluate((n) => getComputedStyle(n).borderTopStyle)).toBe('solid');
    expect(await output.settled()).toEqual({ errors: [], console: [] }); // no CSP violation reported
    await context.close();
  });

  it('never throws into the page, and stays silent, even misconfigured', async () => {
    const { page, output } = await openHost(browser(), { options: { endpoint: 'http://127.0.0.1:9/unreachable' } });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(new URL(r.url()).pathname));
    await page.evaluate(() => {
      const bare = document.createElement('rag-feedback'); // no trace id at all
      document.body.append(bare);
      const broken = document.createElement('rag-feedback');
      broken.setAttribute('trace-id', 'x');
      broken.setAttribute('query', '');
      document.body.append(broken);
      broken.remove();
      document.body.append(broken);
      (broken as any).reportCopy(-1);
      (broken as any).submitCorrection('');
    });
    // A host page that breaks the element's own DOM: the public API still does not throw.
    const threw = await page.evaluate(async () => {
      const el = document.createElement('rag-feedback') as any;
      el.setAttribute('trace-id', 'broken-dom');
      document.body.append(el);
      await el.updateComplete;
      el.querySelectorAll = () => {
        throw new Error('host broke querySelectorAll');
      };
      try {
        el.chooseReason('wrong_source');
        el.castVote('down');
        return false;
      } catch {
        return true;
      }
    });
    expect(threw).toBe(false);
    const traceId = newTraceId('guest');
    await addAnswer(page, { traceId, attrs: { endpoint: 'not a url' } });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    await flush(page);
    // The config load and a send have failed, and the widget has handled both.
    await expect.poll(() => failed).toEqual(expect.arrayContaining(['/unreachable/v1/config', '/unreachable/v1/events']));
    // A page-wide locale of another type counts as none: the widget still renders, in the page's language.
    await page.evaluate(() => (window as any).RagFeedback.configure({ locale: 5 }));
    const other = newTraceId('guest-locale');
    await addAnswer(page, { traceId: other });
    await widget(page, other).getByRole('button', { name: 'Helpful', exact: true }).waitFor();
    const after = await output.settled();
    expect(after.errors).toEqual([]);
    expect(after.console.filter((m) => !m.includes('net::ERR'))).toEqual([]);
    await page.context().close();
  });

  it('takes only what its methods and options can mean from plain JavaScript', async () => {
    const { page } = await openHost(browser());
    await page.evaluate(() => (window as any).RagFeedback.configure({ sessionId: 123 }));
    const traceId = newTraceId('plain-js');
    await addAnswer(page, { traceId, sessionId: '' }); // no session-id of its own: the page-wide option's turn
    // A direction that is not a thumb, and stars out of 1-5, are no vote and no rating.
    await callWidget(page, traceId, 'castVote', 'sideways');
    await callWidget(page, traceId, 'rate', 99);
    expect(await page.evaluate((id) => (document.querySelector(`rag-feedback[trace-id="${id}"]`) as any).feedbackState, traceId)).toMatchObject({
      vote: null,
      rating: null,
    });
    // A correction's text of another type is none, and a source of another type (a URL object) is
    // none given: the text alone is recorded, not lost to the source's type.
    await page.evaluate((id) => {
      const el = document.querySelector(`rag-feedback[trace-id="${id}"]`) as any;
      el.submitCorrection({ text: 'an object' });
      el.submitCorrection('Thirty days for unopened items.', new URL('https://docs.example.com/refunds'));
    }, traceId);
    // A session id of another type counts as none: the events carry the tab's own, and are stored.
    await callWidget(page, traceId, 'castVote', 'up');
    const events = await eventsUpToMarker(page, traceId);
    expect(events.map((e) => e.signalType).filter((t) => t !== 'web_vitals')).toEqual(['correction', 'thumbs_up', 'copy_answer']);
    expect(ofType(events, 'correction').map((e) => e.detail)).toEqual([{ text: 'Thirty days for unopened items.' }]);
    expect(events[0]!.sessionId).toMatch(/^[0-9a-f]{32}$/);
    await page.context().close();
  });

  it('takes an element property of another type, or an answered-at that is not a time, as none given: what it records is stored', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('plain-props');
    await addAnswer(page, { traceId, attrs: { 'answered-at': 'abc' } });
    await page.evaluate((id) => {
      const el = document.querySelector(`rag-feedback[trace-id="${id}"]`) as any;
      el.locale = 5;
      el.sessionId = {};
    }, traceId);
    const el = widget(page, traceId);
    await expect.poll(() => el.getByRole('button', { name: 'Not helpful' }).count()).toBe(1);
    await callWidget(page, traceId, 'castVote', 'down');
    await callWidget(page, traceId, 'reportRegenerate');
    const events = await eventsUpToMarker(page, traceId);
    const recorded = events.filter((e) => ['thumbs_down', 'regenerate'].includes(e.signalType));
    expect(recorded.map((e) => e.signalType)).toEqual(['thumbs_down', 'regenerate']);
    // The answer counts as shown when the element was: the regenerate's gap is a time, and the session the tab's own.
    expect(recorded[1]!.detail.gapMs).toEqual(expect.any(Number));
    expect(recorded[0]!.shownMs).toEqual(expect.any(Number));
    expect(recorded[0]!.sessionId).toMatch(/^[0-9a-f]{32}$/);
    await page.context().close();
  });

  it('takes an endpoint, write key or query of another type (a URL object, a message object) as none given: the page-wide ones deliver, and rephrases are still found', async () => {
    const { page } = await openHost(browser());
    const first = newTraceId('typed-first');
    const odd = newTraceId('typed-odd');
    const next = newTraceId('typed-next');
    await addAnswer(page, { traceId: first, query: 'What is the refund window for opened items?' });
    await page.evaluate(
      ([traceId, collector]) => {
        const el = document.createElement('rag-feedback') as any;
        el.setAttribute('trace-id', traceId);
        el.setAttribute('session-id', 'session-1');
        el.endpoint = new URL(collector!);
        el.writeKey = { key: 'rfw_…' };
        el.query = { role: 'user', text: 'How do I reset my password?' };
        document.getElementById('chat')!.append(el);
        return el.updateComplete;
      },
      [odd, collector()],
    );
    await callWidget(page, odd, 'castVote', 'up');
    await flush(page);
    await eventually(odd, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    // The answer with no query of its own is not one the next question is compared with.
    await addAnswer(page, { traceId: next, query: 'refund window for opened items' });
    await eventually(first, (ev) => expect(ofType(ev, 'rephrase_within_session').map((e) => e.detail.nextTraceId)).toEqual([next]));
    await page.context().close();
  });

  it("sends every answer's events on page hide though one element names an endpoint the browser cannot send to", async () => {
    const { page, context } = await openHost(browser());
    // Only the page-hide beacon (text/plain) gets through: what is stored came with it.
    await context.route(`${collector()}/v1/events`, (route) =>
      route.request().headers()['content-type']?.startsWith('text/plain') ? route.continue() : route.abort(),
    );
    const good = newTraceId('beacon-good');
    const bad = newTraceId('beacon-bad');
    await addAnswer(page, { traceId: good });
    await addAnswer(page, { traceId: bad, attrs: { endpoint: 'https://feedback.example.com:8O8O' } });
    await callWidget(page, bad, 'castVote', 'up');
    await callWidget(page, good, 'castVote', 'down');
    await pending(page);
    await setVisibility(page, 'hidden');
    await eventually(good, (events) => expect(ofType(events, 'thumbs_down')).toHaveLength(1));
    await context.close();
  });

  it('thanks no one for feedback it could not record (no valid endpoint)', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('unsent');
    await addAnswer(page, { traceId, attrs: { endpoint: 'not a url' } });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Incomplete' }).click();
    await expect.poll(() => el.getByRole('dialog').count()).toBe(0);
    expect(await el.getByText('Thank you for your feedback.').count()).toBe(0);
    await page.context().close();
  });

  it('counts what waits even when its outbox code cannot be fetched: pending() never rejects', async () => {
    const context = await browser().newContext();
    await context.route('**/chunks/background-*.js', (route) => route.abort('internetdisconnected'));
    const { page } = await openHost(browser(), { context });
    const traceId = newTraceId('no-outbox');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    expect(await pending(page)).toBe(1);
    // Hidden, the page keeps it for the tab's next page: still counted, and kept once.
    await setVisibility(page, 'hidden');
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('rf:waiting') ?? '[]').length)).toBe(1);
    expect(await pending(page)).toBe(1);
    await setVisibility(page, 'visible');
    await setVisibility(page, 'hidden');
    expect(await pending(page)).toBe(1);
    await context.close();
  });

  it('explains itself on the console only when debug is on', async () => {
    const { page, output } = await openHost(browser(), { options: { debug: true } });
    await addAnswer(page, { traceId: newTraceId('debug'), attrs: { endpoint: 'not a url' } });
    await widget(page, (await page.locator('rag-feedback').last().getAttribute('trace-id'))!)
      .getByRole('button', { name: 'Helpful', exact: true })
      .click();
    await expect.poll(() => output.console.some((m) => m.startsWith('warning: [rag-feedback] not recorded'))).toBe(true);
    await page.context().close();
  });

  it('updates the pressed state within one frame of a click', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('frame');
    await addAnswer(page, { traceId });
    expect((await clickToFrame(page, `rag-feedback[trace-id="${traceId}"]`)).pressed).toBe(true);
    await page.context().close();
  });
});
