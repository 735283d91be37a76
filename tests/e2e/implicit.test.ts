import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addAnswer,
  callWidget,
  collector,
  copyText,
  eventually,
  flush,
  focusedInWidget,
  keys,
  newTraceId,
  ofType,
  openHost,
  pending,
  setVisibility,
  site,
  storedEvents,
  useBrowser,
  widget,
} from './helpers.ts';
import { eventsUpToMarker } from './markers.ts';

const browser = useBrowser();

const fastThresholds = { focusedDwellMs: 400, bounceWindowMs: 5_000, largeCopyChars: 20 };

/** The ids of the prompts the widget of `traceId` took from its config. */
const configPromptIds = (page: Page, traceId: string) =>
  widget(page, traceId).evaluate((el) => (el as unknown as { feedback: { config: { prompts: { id: string }[] } } }).feedback.config.prompts.map((p) => p.id));

/** Shows the in-page preview (`#preview`) long enough to count as read, then scrolls it out of view. */
async function readPreview(page: Page) {
  await page.locator('#preview').scrollIntoViewIfNeeded();
  // Longer than asserted: the visibility observer reports a frame or more late on a busy machine.
  await page.waitForTimeout(1_100);
  await page.evaluate(() => scrollTo(0, 0));
}

describe('implicit signals, each tied to its trace', () => {
  it('tells a copy of the answer from a copy of a cited source, with its length', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('copy');
    await addAnswer(page, { traceId });
    await copyText(page, traceId, 'p.answer');
    await copyText(page, traceId, 'a[data-chunk-id="chunk-2"]');
    await eventually(traceId, (ev) => {
      expect(ofType(ev, 'copy_answer').map((e) => e.detail)).toEqual([{ chars: 'Opened items can be returned within 14 days of delivery.'.length }]);
      expect(ofType(ev, 'copy_source').map((e) => e.detail)).toEqual([{ chunkId: 'chunk-2', chars: '[2] Shipping guide'.length }]);
    });
    await page.context().close();
  });

  it('counts a copy from an in-page preview as a copy of its source, for the answer the preview is in only', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('copy-preview');
    const other = newTraceId('copy-preview-other');
    const html = `<p class="answer">See the policy.</p><a data-chunk-id="chunk-7" href="#p">[1]</a>
      <blockquote data-preview-for="chunk-7"><p id="quoted">Opened items: 14 days.</p></blockquote>`;
    await addAnswer(page, { traceId, html });
    await addAnswer(page, { traceId: other });
    await copyText(page, traceId, '#quoted');
    await eventually(traceId, (ev) => {
      expect(ofType(ev, 'copy_source').map((e) => e.detail)).toEqual([{ chunkId: 'chunk-7', chars: 'Opened items: 14 days.'.length }]);
      expect(ofType(ev, 'copy_answer')).toEqual([]);
    });
    // The other answer claimed no copy: one would have been recorded in the same copy event and sent with it.
    expect((await storedEvents(other)).filter((e) => e.signalType.startsWith('copy_'))).toEqual([]);
    await page.context().close();
  });

  it('records citation clicks, and the time away on an opened source', async () => {
    const { page } = await openHost(browser(), { options: { config: { thresholds: fastThresholds } } });
    const traceId = newTraceId('cite');
    await addAnswer(page, { traceId });
    await widget(page, traceId).locator('a[data-chunk-id="chunk-1"]').click();
    await setVisibility(page, 'hidden'); // the source opened in another tab
    await page.waitForTimeout(600);
    await setVisibility(page, 'visible');
    await eventually(traceId, (ev) => {
      expect(ofType(ev, 'citation_click').map((e) => e.detail)).toEqual([{ chunkId: 'chunk-1' }]);
      const [dwell] = ofType(ev, 'citation_dwell');
      expect(dwell?.detail).toMatchObject({ chunkId: 'chunk-1', mode: 'away' });
      expect(dwell!.detail.ms as number).toBeGreaterThanOrEqual(550);
      // The value is the collector's (focused from 15 s); the page's 400 ms threshold only drives prompts.
      expect(dwell!.signalValue).toBe(0);
    });
    await page.context().close();
  });

  it('records a citation opened in a new tab with the middle button, and not the right button opening its menu', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('cite-middle');
    await addAnswer(page, { traceId });
    await widget(page, traceId).locator('a[data-chunk-id="chunk-1"]').click({ button: 'middle' });
    await widget(page, traceId).locator('a[data-chunk-id="chunk-2"]').click({ button: 'right' });
    await page.keyboard.press('Escape'); // the menu
    const ev = await eventsUpToMarker(page, traceId);
    expect(ofType(ev, 'citation_click').map((e) => e.detail)).toEqual([{ chunkId: 'chunk-1' }]);
    await page.context().close();
  });

  it('records how long an in-page source preview is visible', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('preview');
    const html = `<p class="answer">See the policy.</p><a data-chunk-id="chunk-7" href="#p">[1]</a>
      <div style="height:3000px"></div><blockquote data-preview-for="chunk-7" id="preview">Opened items: 14 days.</blockquote>`;
    await addAnswer(page, { traceId, html });
    await readPreview(page);
    await eventually(traceId, (ev) => {
      const [dwell] = ofType(ev, 'citation_dwell');
      expect(dwell?.detail).toMatchObject({ chunkId: 'chunk-7', mode: 'preview' });
      expect(dwell!.detail.ms as number).toBeGreaterThanOrEqual(700);
    });
    await page.context().close();
  });

  it('records the time a preview is read before the page is hidden and again once it is back, not the time between', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('preview-tab');
    const html = `<p class="answer">See the policy.</p><a data-chunk-id="chunk-7" href="#p">[1]</a>
      <div style="height:3000px"></div><blockquote data-preview-for="chunk-7" id="preview">Opened items: 14 days.</blockquote>`;
    await addAnswer(page, { traceId, html });
    await page.locator('#preview').scrollIntoViewIfNeeded();
    await page.waitForTimeout(800);
    await setVisibility(page, 'hidden'); // another tab; the preview stays on screen all along
    await page.waitForTimeout(1_500);
    const back = Date.now();
    await setVisibility(page, 'visible');
    await page.waitForTimeout(1_100);
    await page.evaluate(() => scrollTo(0, 0));
    const readAgain = Date.now() - back;
    await eventually(traceId, (ev) => {
      // In the order they happened (event ids are time-ordered).
      const dwells = ofType(ev, 'citation_dwell')
        .sort((a, b) => (a.eventId < b.eventId ? -1 : 1))
        .map((e) => e.detail);
      expect(dwells).toHaveLength(2);
      for (const d of dwells) expect(d).toMatchObject({ chunkId: 'chunk-7', mode: 'preview' });
      expect(dwells[1]!.ms as number).toBeGreaterThanOrEqual(700);
      // Not the 1.5 s hidden between: the reading after it ends a frame or so after the scroll, when
      // the page's observer reports it, so a few ms past what was timed here, never a second.
      expect(dwells[1]!.ms as number).toBeLessThan(readAgain + 1_000);
    });
    await page.context().close();
  });

  it('records the dwell on a preview that arrives after the element is on the page (a streamed answer)', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('stream-preview');
    await addAnswer(page, { traceId, html: '<p class="answer">See the</p>' });
    // The rest of the answer streams in.
    await widget(page, traceId).evaluate((el) =>
      el.insertAdjacentHTML(
        'beforeend',
        `<a data-chunk-id="chunk-7" href="#p">[1]</a><div style="height:3000px"></div>
         <blockquote data-preview-for="chunk-7" id="preview">Opened items: 14 days.</blockquote>`,
      ),
    );
    await readPreview(page);
    await eventually(traceId, (ev) => expect(ofType(ev, 'citation_dwell').map((e) => e.detail.mode)).toEqual(['preview']));
    await page.context().close();
  });

  it('records the dwell on a preview marked as one after the element is on the page (data-preview-for set later)', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('late-preview');
    await addAnswer(page, {
      traceId,
      html: `<p class="answer">See the</p><a data-chunk-id="chunk-7" href="#p">[1]</a><div style="height:3000px"></div>
        <blockquote id="preview">Opened items: 14 days.</blockquote>`,
    });
    await page.locator('#preview').evaluate((el) => el.setAttribute('data-preview-for', 'chunk-7'));
    await readPreview(page);
    await eventually(traceId, (ev) => expect(ofType(ev, 'citation_dwell').map((e) => e.detail.mode)).toEqual(['preview']));
    await page.context().close();
  });

  it('keeps timing an answer a keyed list moves (taken out and put back at once), and reports what was read when it is removed', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('moved');
    const html = `<p class="answer">See the policy.</p><a data-chunk-id="chunk-7" href="#p">[1]</a>
      <div style="height:3000px"></div><blockquote data-preview-for="chunk-7" id="preview">Opened items: 14 days.</blockquote>`;
    await addAnswer(page, { traceId, html });
    const other = newTraceId('moved-other');
    await addAnswer(page, { traceId: other });
    await page.waitForTimeout(1_200);
    const move = () => page.evaluate((id) => document.getElementById('chat')!.append(document.querySelector(`rag-feedback[trace-id="${id}"]`)!), traceId);
    await move(); // after the other answer
    await page.locator('#preview').scrollIntoViewIfNeeded();
    await page.waitForTimeout(700);
    await move();
    await page.waitForTimeout(700);
    await page.evaluate((id) => document.querySelector(`rag-feedback[trace-id="${id}"]`)!.remove(), traceId);
    await flush(page);
    await eventually(traceId, (ev) => {
      // One of each, when the answer went away: a move is not an end.
      const [dwell, ...more] = ofType(ev, 'citation_dwell');
      expect(more).toEqual([]);
      expect(dwell?.detail).toMatchObject({ chunkId: 'chunk-7', mode: 'preview' });
      expect(dwell!.detail.ms as number).toBeGreaterThanOrEqual(1_300);
      // The whole time on screen, moves included (each part alone, under a second, would be dropped).
      expect(ofType(ev, 'answer_dwell').map((e) => e.detail.ms as number)).toEqual([expect.toSatisfy((ms: number) => ms >= 2_400)]);
    });
    await page.context().close();
  });

  it('reports answer dwell when the page is hidden', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('dwell');
    await addAnswer(page, { traceId });
    await page.waitForTimeout(1_600);
    await setVisibility(page, 'hidden');
    await eventually(traceId, (ev) => {
      const [dwell] = ofType(ev, 'answer_dwell');
      expect(dwell!.detail.ms as number).toBeGreaterThanOrEqual(1_200);
      expect(dwell!.signalValue).toBeNull();
    });
    await page.context().close();
  });

  it('counts dwell on an answer taller than the screen', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('tall');
    await addAnswer(page, { traceId, html: '<p class="answer" style="height:4000px">A very long answer.</p>' });
    await page.evaluate(() => scrollTo(0, 1500));
    await page.waitForTimeout(1_600);
    await setVisibility(page, 'hidden');
    await eventually(traceId, (ev) => expect(ofType(ev, 'answer_dwell')[0]!.detail.ms as number).toBeGreaterThanOrEqual(1_200));
    await page.context().close();
  });

  it('counts dwell on an answer more than four screens tall while it fills the screen', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('very-tall');
    // Under a quarter of it on screen at any time: no visibility threshold of a quarter or more is ever crossed.
    await page.evaluate(() => document.getElementById('chat')!.before(Object.assign(document.createElement('div'), { style: 'height:200vh' })));
    await addAnswer(page, { traceId, html: '<p class="answer" style="height:600vh">A very long answer.</p>' });
    const top = await widget(page, traceId).evaluate((el) => el.getBoundingClientRect().top + scrollY);
    // Scrolled into view as a reader does: its first lines, then on until it fills the screen.
    await page.evaluate((top) => scrollTo(0, top - innerHeight + 50), top);
    await page.waitForTimeout(300);
    await page.evaluate((top) => scrollTo(0, top + 2 * innerHeight), top);
    await page.waitForTimeout(1_600);
    await setVisibility(page, 'hidden');
    await eventually(traceId, (ev) => expect(ofType(ev, 'answer_dwell')[0]!.detail.ms as number).toBeGreaterThanOrEqual(1_200));
    await page.context().close();
  });

  it("keeps the dwell and preview reading of an answer whose element loses its trace id, as the previous trace's", async () => {
    const { page } = await openHost(browser());
    const ids = [newTraceId('cleared-attr'), newTraceId('cleared-empty'), newTraceId('cleared-null')];
    const html = '<p class="answer">Opened items: 14 days.</p><blockquote data-preview-for="chunk-7">Returns policy, section 2.</blockquote>';
    for (const traceId of ids) await addAnswer(page, { traceId, html });
    await page.waitForTimeout(1_300);
    await page.evaluate(([a, b, c]) => {
      const el = (id: string) => document.querySelector(`rag-feedback[trace-id="${id}"]`) as HTMLElement & { traceId: string | null };
      el(a!).removeAttribute('trace-id');
      el(b!).setAttribute('trace-id', '');
      el(c!).traceId = null;
    }, ids);
    await flush(page);
    for (const traceId of ids) {
      await eventually(traceId, (ev) => {
        expect(ofType(ev, 'answer_dwell')[0]!.detail.ms as number).toBeGreaterThanOrEqual(1_100);
        expect(ofType(ev, 'citation_dwell').map((e) => e.detail)).toEqual([expect.objectContaining({ chunkId: 'chunk-7', mode: 'preview' })]);
      });
    }
    await page.context().close();
  });

  it('counts no dwell for the time an element spends off the page, pointed at another answer meanwhile', async () => {
    const { page } = await openHost(browser());
    const [a, b] = [newTraceId('parked-a'), newTraceId('parked-b')];
    await addAnswer(page, { traceId: a });
    await page.waitForTimeout(1_300);
    // Taken off the page, later given the next answer's trace while off it, and put back after a while.
    await page.evaluate((a) => {
      const el = document.querySelector(`rag-feedback[trace-id="${a}"]`)!;
      el.remove();
      (window as unknown as { parked: Element }).parked = el;
    }, a);
    await page.waitForTimeout(100);
    await page.evaluate((b) => (window as unknown as { parked: Element }).parked.setAttribute('trace-id', b), b);
    await page.waitForTimeout(3_000);
    await page.evaluate(() => document.getElementById('chat')!.append((window as unknown as { parked: Element }).parked));
    await page.waitForTimeout(200);
    await setVisibility(page, 'hidden');
    await setVisibility(page, 'visible');
    // The time on screen before is the first answer's; the three seconds off the page are no one's.
    await eventually(a, (ev) => expect(ofType(ev, 'answer_dwell').map((e) => e.detail.ms as number)).toEqual([expect.toSatisfy((ms: number) => ms >= 1_100)]));
    const ev = await eventsUpToMarker(page, b);
    for (const dwell of ofType(ev, 'answer_dwell')) expect(dwell.detail.ms as number).toBeLessThan(2_000);
    await page.context().close();
  });

  it('marks the FIRST trace when the next query in the session rephrases it, and not an unrelated one', async () => {
    const { page } = await openHost(browser());
    const first = newTraceId('q1');
    const second = newTraceId('q2');
    const third = newTraceId('q3');
    await addAnswer(page, { traceId: first, query: 'What is the refund window for opened items?' });
    await addAnswer(page, { traceId: second, query: 'refund window for opened items' });
    await addAnswer(page, { traceId: third, query: 'Which carriers do you ship with?' });
    const [event] = await eventually(first, (ev) => {
      const r = ofType(ev, 'rephrase_within_session');
      expect(r).toHaveLength(1);
      return r;
    });
    expect(event!.detail).toMatchObject({ nextTraceId: second });
    expect(event!.signalValue).toBe(-0.6);
    // A fourth answer rephrases the third. Answers are checked one after another, so once its mark
    // on the third is stored, a mark the third made would have been too.
    const fourth = newTraceId('q4');
    await addAnswer(page, { traceId: fourth, query: 'which carriers do you ship with' });
    await eventually(third, (ev) => expect(ofType(ev, 'rephrase_within_session').map((e) => e.detail.nextTraceId)).toEqual([fourth]));
    expect(ofType(await storedEvents(second), 'rephrase_within_session')).toEqual([]);
    expect(ofType(await storedEvents(first), 'rephrase_within_session')).toHaveLength(1);
    await page.context().close();
  });

  it("checks an answer in the page's HTML for rephrases in the session configure() names after it", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const [first, second] = [newTraceId('html-q1'), newTraceId('html-q2')];
    const params = new URLSearchParams({ endpoint: collector(), key: keys().write, trace: first, session: `chat-${first}` });
    await page.goto(`${site()}/tests/e2e/pages/late-configure.html?${params}`);
    await page.waitForFunction(() => (window as any).ready === true);
    // The chat's next answer, in the configured session as every answer after configure() is.
    await page.evaluate((traceId) => {
      const el = document.createElement('rag-feedback');
      el.setAttribute('trace-id', traceId);
      el.setAttribute('query', 'refund window for opened items');
      document.getElementById('chat')!.append(el);
    }, second);
    await eventually(first, (ev) =>
      expect(ofType(ev, 'rephrase_within_session').map((e) => [e.sessionId, e.detail.nextTraceId])).toEqual([[`chat-${first}`, second]]),
    );
    await context.close();
  });

  it('records a regenerate reported by the chat UI, with the time since the answer, and not also as a rephrase', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('regen');
    const query = 'What is the refund window for opened items?';
    await addAnswer(page, { traceId, query });
    await page.waitForTimeout(300);
    await callWidget(page, traceId, 'reportRegenerate');
    // The chat UI answers the same question again; a later question rephrasing it is still one.
    const again = newTraceId('regen2');
    await addAnswer(page, { traceId: again, query });
    const next = newTraceId('regen3');
    await addAnswer(page, { traceId: next, query: 'refund window for opened items' });
    await eventually(again, (ev) => expect(ofType(ev, 'rephrase_within_session').map((e) => e.detail.nextTraceId)).toEqual([next]));
    await eventually(traceId, (ev) => {
      const [r] = ofType(ev, 'regenerate');
      expect(r!.detail.gapMs as number).toBeGreaterThanOrEqual(250);
      expect(r!.signalValue).toBe(-0.7);
    });
    expect(ofType(await storedEvents(traceId), 'rephrase_within_session')).toEqual([]);
    await page.context().close();
  });

  it("records a person's vote even when the page's own signals have just spent the session's rate", async () => {
    const { page } = await openHost(browser(), { options: { config: { thresholds: { bounceWindowMs: 120_000 } } } });
    // More answers than the session's 120 events a minute: each reports a bounce when the page is hidden.
    const ids = Array.from({ length: 130 }, (_, i) => newTraceId(`busy${i}`));
    for (const traceId of ids) await addAnswer(page, { traceId });
    await pending(page); // the recorder is loaded
    // Hidden and shown again, and the vote cast in the same task: no time for the bucket to refill.
    await page.evaluate((id) => {
      const visibility = (s: string) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      visibility('hidden');
      visibility('visible');
      const el = document.querySelector(`rag-feedback[trace-id="${id}"]`)!;
      (el.shadowRoot!.querySelector('button[aria-label="Helpful"]') as HTMLButtonElement).click();
    }, ids[0]!);
    await eventually(ids[0]!, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    await page.context().close();
  });

  it('records a bounce when the page is closed soon after the answer with no interaction (sent by beacon)', async () => {
    const { page } = await openHost(browser(), { options: { config: { thresholds: fastThresholds } } });
    const traceId = newTraceId('bounce');
    const kept = newTraceId('kept');
    await addAnswer(page, { traceId });
    await addAnswer(page, { traceId: kept });
    await widget(page, kept).getByRole('button', { name: 'Helpful', exact: true }).click();
    await page.waitForTimeout(200);
    await page.goto(`${site()}/tests/e2e/pages/host.html`); // leaves the page: pagehide
    await eventually(traceId, (ev) => expect(ofType(ev, 'bounce')).toHaveLength(1));
    // A bounce of the other answer would have left in the same page-hide beacon as that one.
    expect(ofType(await storedEvents(kept), 'bounce')).toEqual([]); // interacted: no bounce
    await page.context().close();
  });

  it('records no bounce for an answer mounted anew with its vote restored', async () => {
    const { page } = await openHost(browser(), { options: { config: { thresholds: fastThresholds } } });
    const traceId = newTraceId('remount');
    const other = newTraceId('remount-other');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    // A framework renders the answer again: a new element for the same trace, without `answered-at`.
    await widget(page, traceId).evaluate((el) => el.remove());
    await addAnswer(page, { traceId });
    expect(await widget(page, traceId).evaluate((el: any) => el.feedbackState.vote)).toBe('up');
    await addAnswer(page, { traceId: other });
    await page.goto(`${site()}/tests/e2e/pages/host.html`); // leaves the page: pagehide
    await eventually(other, (ev) => expect(ofType(ev, 'bounce')).toHaveLength(1));
    // A bounce of the voted answer would have left in the same page-hide beacon as that one.
    expect(ofType(await storedEvents(traceId), 'bounce')).toEqual([]);
    await page.context().close();
  });

  it('reports web vitals as context for the page', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('vitals');
    await addAnswer(page, { traceId });
    await page.waitForTimeout(300);
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click(); // an interaction finalises LCP
    // Once web-vitals observes (it loads when the page is idle, and reads no past interactions), a slow
    // click of the page's own: an interaction it measures (it leaves out those under 40 ms).
    await page.waitForTimeout(1_500);
    await page.evaluate(() =>
      addEventListener('click', () => {
        for (const start = performance.now(); performance.now() - start < 200; );
      }),
    );
    await page.mouse.click(5, 5);
    await page.waitForTimeout(300);
    await setVisibility(page, 'hidden');
    await eventually(traceId, (ev) => {
      const vitals = ofType(ev, 'web_vitals').map((e) => e.detail.name);
      expect(vitals).toEqual(expect.arrayContaining(['INP', 'LCP', 'CLS']));
      for (const v of ofType(ev, 'web_vitals')) expect(v.signalValue).toBeNull();
    });
    // Back on the page, a slower interaction and a layout shift: web-vitals reports the grown INP and CLS at the next
    // hide, which the widget does not pass on (once per page).
    await setVisibility(page, 'visible');
    await page.evaluate(() => {
      addEventListener('click', () => {
        for (const start = performance.now(); performance.now() - start < 400; );
      });
      document.body.prepend(Object.assign(document.createElement('div'), { style: 'height: 300px' }));
    });
    await page.mouse.click(5, 5);
    await page.waitForTimeout(300);
    await setVisibility(page, 'hidden');
    await setVisibility(page, 'visible');
    const ev = await eventsUpToMarker(page, traceId);
    expect(
      ofType(ev, 'web_vitals')
        .map((e) => e.detail.name)
        .sort(),
    ).toEqual(['CLS', 'INP', 'LCP']);
    await page.context().close();
  });
});

describe('contextual prompts', () => {
  const prompts = [
    { id: 'trouble', trigger: 'rephrase', text: { en: 'Having trouble finding an answer?', 'zh-CN': '是否遇到了困难？' }, maxPerSession: 1, maxPerDay: 5 },
    { id: 'helpful', trigger: 'large_copy', text: 'Was this helpful?', maxPerSession: 5, maxPerDay: 1 },
    { id: 'downs', trigger: 'repeated_thumbs_down', text: 'Tell us what you were looking for?', maxPerSession: 1 },
  ];

  it('shows a prompt after a rephrase, records showing and answering, and caps it per session', async () => {
    const { page } = await openHost(browser(), { options: { config: { prompts } } });
    const [a, b, c] = [newTraceId('pa'), newTraceId('pb'), newTraceId('pc')];
    await addAnswer(page, { traceId: a, query: 'how long do I have to return an opened item' });
    await addAnswer(page, { traceId: b, query: 'How long can I return opened items?' });
    const prompt = widget(page, b).getByRole('group', { name: 'Having trouble finding an answer?' });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'No' }).click();
    await prompt.waitFor({ state: 'detached' });
    await eventually(b, (ev) => {
      expect(ofType(ev, 'prompt_shown').map((e) => e.detail)).toEqual([{ promptId: 'trouble', trigger: 'rephrase' }]);
      expect(ofType(ev, 'prompt_answered').map((e) => [e.detail, e.signalValue])).toEqual([[{ promptId: 'trouble', answer: 'no' }, -0.5]]);
    });
    // A second rephrase in the same session: the cap (1 per session) holds.
    await addAnswer(page, { traceId: c, query: 'return opened item how long' });
    await eventually(b, (ev) => expect(ofType(ev, 'rephrase_within_session')).toHaveLength(1));
    // A prompt would have been shown, and recorded, in the same step as that mark, and sent with it.
    expect(ofType(await storedEvents(c), 'prompt_shown')).toEqual([]);
    expect(await widget(page, c).getByRole('group', { name: 'Having trouble finding an answer?' }).count()).toBe(0);
    await page.context().close();
  });

  it('shows "was this helpful?" after a large copy at most once a day, across sessions', async () => {
    const { page, context } = await openHost(browser(), { options: { config: { prompts, thresholds: fastThresholds } } });
    const a = newTraceId('copy1');
    await addAnswer(page, { traceId: a, sessionId: 'day-1' });
    await copyText(page, a, 'p.answer');
    await widget(page, a).getByRole('group', { name: 'Was this helpful?' }).waitFor();
    const b = newTraceId('copy2');
    await addAnswer(page, { traceId: b, sessionId: 'day-2' });
    await copyText(page, b, 'p.answer');
    // A prompt would have been shown, and recorded, in the same step as the copy, and sent with it.
    const events = await eventually(b, (ev) => {
      expect(ofType(ev, 'copy_answer')).toHaveLength(1);
      return ev;
    });
    expect(ofType(events, 'prompt_shown')).toEqual([]);
    expect(await widget(page, b).getByRole('group', { name: 'Was this helpful?' }).count()).toBe(0);
    await context.close();
  });

  it('gives focus back to the vote when a prompt is answered from the keyboard, rather than to the page', async () => {
    const { page } = await openHost(browser(), { options: { config: { prompts, thresholds: fastThresholds } } });
    const traceId = newTraceId('prompt-kbd');
    await addAnswer(page, { traceId });
    await callWidget(page, traceId, 'reportCopy', 100);
    const prompt = widget(page, traceId).getByRole('group', { name: 'Was this helpful?' });
    await prompt.getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await prompt.waitFor({ state: 'detached' });
    await expect.poll(() => focusedInWidget(page, traceId)).toEqual({ text: '', label: 'Not helpful' });
    await page.context().close();
  });

  it('announces a prompt as it appears to screen readers, without taking the focus', async () => {
    const { page } = await openHost(browser(), { options: { config: { prompts, thresholds: fastThresholds } } });
    const traceId = newTraceId('prompt-sr');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).focus();
    await callWidget(page, traceId, 'reportCopy', 100);
    await widget(page, traceId).getByRole('group', { name: 'Was this helpful?' }).waitFor();
    await expect.poll(() => widget(page, traceId).getByRole('status').textContent()).toBe('Was this helpful?');
    expect(await widget(page, traceId).getByRole('status').getAttribute('aria-live')).toBe('polite');
    expect(await focusedInWidget(page, traceId)).toEqual({ text: '', label: 'Helpful' });
    await page.context().close();
  });

  it('asks after repeated thumbs-down in one session', async () => {
    const { page } = await openHost(browser(), { options: { config: { prompts } } });
    const [a, b] = [newTraceId('d1'), newTraceId('d2')];
    await addAnswer(page, { traceId: a });
    await addAnswer(page, { traceId: b });
    await widget(page, a).getByRole('button', { name: 'Not helpful' }).click();
    // A prompt would have been shown, and recorded, in the same step as the vote, and sent with it.
    const events = await eventually(a, (ev) => {
      expect(ofType(ev, 'thumbs_down')).toHaveLength(1);
      return ev;
    });
    expect(ofType(events, 'prompt_shown')).toEqual([]);
    expect(await widget(page, a).getByRole('group', { name: 'Tell us what you were looking for?' }).count()).toBe(0);
    await widget(page, b).getByRole('button', { name: 'Not helpful' }).click();
    await widget(page, b).getByRole('group', { name: 'Tell us what you were looking for?' }).waitFor();
    await page.context().close();
  });

  it('renders with the defaults for what a malformed project config has wrong, and shows the prompts it can', async () => {
    const { page, context } = await openHost(browser());
    // What a broken proxy or server might answer GET /v1/config with: JSON, of the wrong types.
    await context.route(`${collector()}/v1/config`, (route) =>
      route.request().method() !== 'GET'
        ? route.continue()
        : route.fulfill({
            status: 200,
            headers: { 'access-control-allow-origin': site(), 'content-type': 'application/json' },
            body: JSON.stringify({
              rating: 'yes',
              thresholds: { repeatedThumbsDown: 1, bounceWindowMs: 'soon' },
              prompts: [
                { id: 'no-text', trigger: 'repeated_thumbs_down', text: null },
                { id: 'odd-choices', trigger: 'repeated_thumbs_down', text: 'Still looking?', choices: 'yes' },
              ],
            }),
          }),
    );
    const traceId = newTraceId('malformed');
    await addAnswer(page, { traceId });
    await expect.poll(() => configPromptIds(page, traceId)).toEqual(['odd-choices']);
    // Thumbs, not a rating: "yes" is no boolean.
    await widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
    const prompt = widget(page, traceId).getByRole('group', { name: 'Still looking?' });
    await prompt.waitFor();
    expect(await prompt.getByRole('button').allTextContents()).toEqual(['Yes', 'No', 'Dismiss']);
    await expect.poll(async () => ofType(await storedEvents(traceId), 'prompt_shown').map((e) => e.detail.promptId)).toEqual(['odd-choices']);
    await context.close();
  });

  it('takes prompts from the project config served by the collector', async () => {
    const put = await fetch(`${collector()}/v1/config`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${keys().admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        prompts: [{ id: 'server-prompt', trigger: 'repeated_thumbs_down', text: 'From the server?' }],
        thresholds: { repeatedThumbsDown: 1 },
      }),
    });
    expect(put.status).toBe(200);
    try {
      const { page } = await openHost(browser());
      const traceId = newTraceId('srv');
      await addAnswer(page, { traceId });
      // The widget fetches the config as the answer appears; a vote before it arrives is judged by the defaults.
      await expect.poll(() => configPromptIds(page, traceId)).toContain('server-prompt');
      await widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
      await widget(page, traceId).getByRole('group', { name: 'From the server?' }).waitFor();
      await page.context().close();
    } finally {
      await fetch(`${collector()}/v1/config`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${keys().admin}`, 'content-type': 'application/json' },
        body: '{}',
      });
    }
  });
});
