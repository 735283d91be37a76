import { describe, expect, it } from 'vitest';
import { addAnswer, eventually, flush, focusedInWidget, newTraceId, ofType, openHost, setVisibility, useBrowser, widget } from './helpers.ts';
import { eventsUpToMarker } from './markers.ts';

const browser = useBrowser();

describe('explicit feedback', () => {
  for (const build of ['esm', 'iife'] as const) {
    it(`renders around the answer (${build} build), labelled, without errors or console output`, async () => {
      const { page, output } = await openHost(browser(), { build });
      const traceId = newTraceId('render');
      await addAnswer(page, { traceId });
      const el = widget(page, traceId);
      await expect(el.getByRole('button', { name: 'Helpful', exact: true }).isVisible()).resolves.toBe(true);
      await expect(el.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).resolves.toBe('false');
      await expect(el.locator('p.answer').isVisible()).resolves.toBe(true);
      await flush(page); // the lazily loaded parts have run by then
      expect(await output.settled()).toEqual({ errors: [], console: [] });
      await page.context().close();
    });
  }

  it('votes, flips and takes back a vote: one live vote, every click kept', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('vote');
    await addAnswer(page, { traceId });
    const up = widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true });
    const down = widget(page, traceId).getByRole('button', { name: 'Not helpful' });
    await up.click();
    expect(await up.getAttribute('aria-pressed')).toBe('true');
    await page.waitForTimeout(900); // past the double-click window
    await down.click();
    expect(await down.getAttribute('aria-pressed')).toBe('true');
    expect(await up.getAttribute('aria-pressed')).toBe('false');
    const votes = await eventually(traceId, (ev) => {
      const v = ev.filter((e) => e.signalType.startsWith('thumbs'));
      expect(v.map((e) => e.signalType)).toEqual(['thumbs_up', 'thumbs_down']);
      return v;
    });
    expect(votes.map((e) => e.superseded)).toEqual([true, false]);
    // The browser measures how long after the answer appeared each vote came, for the noise filter.
    const [first, second] = votes.map((e) => e.shownMs!);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second! - first!).toBeGreaterThanOrEqual(900);
    await page.waitForTimeout(900);
    await down.click(); // the same thumb again takes the vote back
    expect(await down.getAttribute('aria-pressed')).toBe('false');
    await eventually(traceId, (ev) => expect(ev.filter((e) => e.signalGroup === 'vote' && !e.superseded).map((e) => e.signalType)).toEqual(['vote_cleared']));
    await page.context().close();
  });

  it('starts over when a recycled element is pointed at another answer', async () => {
    const { page } = await openHost(browser());
    const [a, b] = [newTraceId('recycleA'), newTraceId('recycleB')];
    await addAnswer(page, { traceId: a });
    await widget(page, a).getByRole('button', { name: 'Helpful', exact: true }).click();
    await page.waitForTimeout(1_200);
    await page.evaluate(([a, b]) => document.querySelector(`rag-feedback[trace-id="${a}"]`)!.setAttribute('trace-id', b!), [a, b] as const);
    const up = widget(page, b).getByRole('button', { name: 'Helpful', exact: true });
    await expect.poll(() => up.getAttribute('aria-pressed')).toBe('false');
    await widget(page, b).getByRole('button', { name: 'Not helpful' }).click();
    await widget(page, b).getByRole('dialog').waitFor();
    await flush(page);
    await eventually(b, (ev) => expect(ev.filter((e) => e.signalGroup === 'vote').map((e) => e.signalType)).toEqual(['thumbs_down']));
    // The time the first answer was on screen is the first trace's.
    await eventually(a, (ev) => {
      expect(ofType(ev, 'thumbs_up')).toHaveLength(1);
      expect(ofType(ev, 'answer_dwell')[0]!.detail.ms as number).toBeGreaterThanOrEqual(1_100);
    });
    await page.context().close();
  });

  it('counts a double click once', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('dbl');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).dblclick();
    const events = await eventsUpToMarker(page, traceId);
    expect(ofType(events, 'thumbs_up')).toHaveLength(1);
    expect(ofType(events, 'vote_cleared')).toHaveLength(0);
    await page.context().close();
  });

  it('takes a change of mind at once: the other thumb within the double-click window counts', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('mind');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Helpful', exact: true }).click();
    await widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
    expect(await widget(page, traceId).evaluate((el: any) => el.feedbackState.vote)).toBe('down');
    const events = await eventsUpToMarker(page, traceId);
    expect(events.filter((e) => e.signalType === 'thumbs_up' || e.signalType === 'thumbs_down').map((e) => e.signalType)).toEqual(['thumbs_up', 'thumbs_down']);
    await page.context().close();
  });

  it('opens the reasons popover after a thumbs-down, usable by keyboard; Escape returns focus', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('kbd');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).focus();
    await page.keyboard.press('Enter');
    const dialog = el.getByRole('dialog', { name: 'What went wrong?' });
    await dialog.waitFor();
    const focused = async () => (await focusedInWidget(page, traceId)).text;
    expect(await focused()).toBe("Didn't answer my question");
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused()).toBe('');
    expect((await focusedInWidget(page, traceId)).label).toBe('Not helpful');

    // Again, and this time choose "Incomplete" with Tab and Enter.
    await page.waitForTimeout(900);
    await page.keyboard.press('Enter'); // clears the vote
    await page.waitForTimeout(900);
    await page.keyboard.press('Enter'); // thumbs down again
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await eventually(traceId, (ev) => expect(ofType(ev, 'attribution').map((e) => e.detail)).toEqual([{ reason: 'incomplete' }]));

    await page.context().close();
  });

  it('keeps one popover open on the page, as a menu does, but never closes a correction the user is typing', async () => {
    const { page } = await openHost(browser());
    const [a, b, c, d, e, f] = [newTraceId('one-a'), newTraceId('one-b'), newTraceId('one-c'), newTraceId('one-d'), newTraceId('one-e'), newTraceId('one-f')];
    for (const traceId of [a, b, c, d, e, f]) await addAnswer(page, { traceId });
    const dialog = (traceId: string) => widget(page, traceId).getByRole('dialog');
    const voteDown = (traceId: string) => widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
    const suggest = (traceId: string) => widget(page, traceId).getByRole('button', { name: 'Suggest a correction' }).click();

    await voteDown(a);
    await dialog(a).waitFor();
    await voteDown(b);
    await dialog(b).waitFor();
    // The earlier answer's closes; the focus stays in the popover just opened.
    await dialog(a).waitFor({ state: 'detached' });
    expect((await focusedInWidget(page, b)).text).toBe("Didn't answer my question");

    // A correction form with nothing written in it closes as any other popover.
    await suggest(b);
    await widget(page, b).getByLabel('What should the answer say?').waitFor();
    await voteDown(c);
    await dialog(c).waitFor();
    await dialog(b).waitFor({ state: 'detached' });

    // A correction half typed stays open, its text kept, when another answer's popover opens.
    await suggest(c);
    const draft = widget(page, c).getByLabel('What should the answer say?');
    await draft.fill('Opened items: 30 days.');
    await voteDown(d);
    await dialog(d).waitFor();
    expect(await draft.inputValue()).toBe('Opened items: 30 days.');
    // Escape closes the popover it is pressed in, and that one alone.
    await page.keyboard.press('Escape');
    await dialog(d).waitFor({ state: 'detached' });
    expect(await draft.inputValue()).toBe('Opened items: 30 days.');

    // So does one with only where the answer is written filled in.
    await voteDown(e);
    await suggest(e);
    const where = widget(page, e).getByLabel('Where can we find it? (optional)');
    await where.fill('Returns policy v4');
    await voteDown(f);
    await dialog(f).waitFor();
    expect(await where.inputValue()).toBe('Returns policy v4');

    await widget(page, c).getByRole('button', { name: 'Send' }).click();
    await widget(page, c).getByText('Thank you for your feedback.').waitFor();
    await eventually(c, (ev) => expect(ofType(ev, 'correction').map((event) => event.detail)).toEqual([{ text: 'Opened items: 30 days.' }]));
    await page.context().close();
  });

  it('keeps the correction form open when Escape only cancels what an input method was composing', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('ime');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Suggest a correction' }).click();
    const field = el.getByLabel('What should the answer say?');
    await field.fill('退货期限是三十天');
    // Escape pressed while the IME shows its candidates: the browser says it is composing.
    await field.dispatchEvent('keydown', { key: 'Escape', isComposing: true, bubbles: true, composed: true });
    expect(await field.inputValue()).toBe('退货期限是三十天');
    await field.press('Escape');
    await el.getByRole('dialog').waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('keeps what the user wrote in the popover when the answer is voted down again, or rated low again', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('rewrite');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    const [up, down] = [el.getByRole('button', { name: 'Helpful', exact: true }), el.getByRole('button', { name: 'Not helpful' })];
    await down.click();
    await el.getByRole('button', { name: 'Something else' }).click();
    const more = el.getByLabel('Tell us more');
    await more.fill('The 30-day rule is for members.');
    // A change of mind and back: the thumb-down asks for no reason over what is written.
    await up.click();
    await down.click();
    await expect.poll(() => down.getAttribute('aria-pressed')).toBe('true');
    expect(await more.inputValue()).toBe('The 30-day rule is for members.');
    // Nor does it over a correction being written.
    await el.getByRole('button', { name: 'Close' }).click();
    await page.waitForTimeout(900);
    await down.click(); // takes the vote back
    await page.waitForTimeout(900);
    await down.click();
    await el.getByRole('button', { name: 'Suggest a correction' }).click();
    const draft = el.getByLabel('What should the answer say?');
    await draft.fill('Opened items: 30 days.');
    await page.waitForTimeout(900);
    await down.click();
    await page.waitForTimeout(900);
    await down.click();
    expect(await draft.inputValue()).toBe('Opened items: 30 days.');
    expect(await el.getByRole('dialog', { name: 'Suggest a correction' }).count()).toBe(1);

    // In rating mode, a second low rating alike.
    const rated = newTraceId('rewrite-rate');
    const { page: ratingPage } = await openHost(browser(), { options: { config: { rating: true }, loadConfig: false } });
    await addAnswer(ratingPage, { traceId: rated });
    const r = widget(ratingPage, rated);
    await r.getByRole('button', { name: '2 of 5 stars' }).click();
    await r.getByRole('button', { name: 'Suggest a correction' }).click();
    await r.getByLabel('What should the answer say?').fill('Thirty days.');
    await r.getByRole('button', { name: '1 of 5 stars' }).click();
    await eventually(rated, (ev) => expect(ofType(ev, 'rating').map((e) => e.detail.stars)).toEqual([2, 1]));
    expect(await r.getByLabel('What should the answer say?').inputValue()).toBe('Thirty days.');
    await page.context().close();
    await ratingPage.context().close();
  });

  it("closes the popover on Escape without closing the host's modal dialog the answer is in", async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('modal');
    await page.evaluate(() => {
      const dialog = document.createElement('dialog');
      dialog.id = 'modal';
      document.body.append(dialog);
      // The chat's answers in a modal dialog: addAnswer appends them to #chat.
      dialog.append(document.getElementById('chat')!);
      dialog.showModal();
    });
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    const popover = el.getByRole('dialog', { name: 'What went wrong?' });
    await popover.waitFor();
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (document.getElementById('modal') as HTMLDialogElement).open)).toBe(true);
    // With the popover closed, Escape is the dialog's again.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => (document.getElementById('modal') as HTMLDialogElement).open)).toBe(false);
    await page.context().close();
  });

  it('opens the popover even when clicked before its code has loaded', async () => {
    const context = await browser().newContext();
    // The popover's chunk arrives late, as on a slow connection.
    await context.route('**/chunks/background-*.js', async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    const { page } = await openHost(browser(), { context });
    const traceId = newTraceId('slow');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
    await widget(page, traceId).getByRole('dialog', { name: 'What went wrong?' }).waitFor();
    expect((await focusedInWidget(page, traceId)).text).toBe("Didn't answer my question");
    await context.close();
  });

  it("leaves the focus where the user took it while the popover's code was loading (typing in the chat's input)", async () => {
    const context = await browser().newContext();
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    await context.route('**/chunks/background-*.js', async (route) => {
      await arrived;
      await route.continue();
    });
    const { page } = await openHost(browser(), { context });
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { id: 'message', ariaLabel: 'Message' })));
    const traceId = newTraceId('slow-focus');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
    await page.locator('#message').focus();
    await page.keyboard.type('Where is');
    arrive();
    await widget(page, traceId).getByRole('dialog', { name: 'What went wrong?' }).waitFor();
    // The rest of the message, and Enter to send it: neither goes to the popover's first reason.
    await page.keyboard.type(' my order?');
    await page.keyboard.press('Enter');
    expect(await page.locator('#message').inputValue()).toBe('Where is my order?');
    expect(await page.evaluate(() => (window as any).signals.map((e: { signalType: string }) => e.signalType))).not.toContain('attribution');
    await context.close();
  });

  it("keeps a vote cast while its code could not be fetched, and sends it from the tab's next page", async () => {
    const context = await browser().newContext();
    let reachable = false;
    // A failing fetch takes a while, so the connection comes back while one is still under way.
    await context.route('**/chunks/background-*.js', async (route) => {
      if (reachable) return route.continue();
      await new Promise((r) => setTimeout(r, 1_500));
      return route.abort('internetdisconnected');
    });
    const { page } = await openHost(browser(), { context });
    const traceId = newTraceId('unfetched');
    await addAnswer(page, { traceId });
    await widget(page, traceId).getByRole('button', { name: 'Not helpful' }).click();
    await expect.poll(() => widget(page, traceId).getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe('true');
    // Back online. Chromium 153 does not fetch a module whose import failed again (the HTML
    // standard now says it should; Firefox, Safari and Chromium 156 do), so there this page cannot
    // record the vote: it keeps it for the tab's next page, which has the code.
    reachable = true;
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await setVisibility(page, 'hidden');
    const kept = await page.evaluate(() => sessionStorage.getItem('rf:waiting'));
    await page.reload();
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_down')).toHaveLength(1));
    // A duplicated tab has the same session storage and sends the same events again: the ids made
    // when they happened let the collector keep them once.
    const twin = await browser().newContext();
    await twin.addInitScript((k) => sessionStorage.setItem('rf:waiting', k), kept!);
    const { page: copy } = await openHost(browser(), { context: twin });
    await expect.poll(() => copy.evaluate(() => sessionStorage.getItem('rf:waiting'))).toBe('[]');
    await flush(copy);
    await addAnswer(page, { traceId }); // the reloaded page sends the marker after both
    const events = await eventsUpToMarker(page, traceId);
    expect(ofType(events, 'thumbs_down')).toHaveLength(1);
    await twin.close();
    await context.close();
  });

  it('sends a correction, redacted, announces it with rf-submit and tells it in feedbackState', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('corr');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    const submitted = page.evaluate(
      () => new Promise((resolve) => document.addEventListener('rf-submit', (e) => resolve((e as CustomEvent).detail.kind), { once: true })),
    );
    const corrected = () => el.evaluate((e: any) => e.feedbackState.corrected);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Suggest a correction' }).click();
    await el.getByLabel('What should the answer say?').fill('Opened items: 30 days. Ask jane.doe@example.com or call 138 1234 5678.');
    await el.getByLabel('Where can we find it? (optional)').fill('Returns policy v4, section 2');
    // The form open, nothing sent yet.
    expect(await corrected()).toBe(false);
    await el.getByRole('button', { name: 'Send' }).click();
    expect(await submitted).toBe('correction');
    await el.getByText('Thank you for your feedback.').waitFor();
    // The page can tell that this answer has its correction.
    expect(await corrected()).toBe(true);
    await eventually(traceId, (ev) =>
      expect(ofType(ev, 'correction').map((e) => e.detail)).toEqual([
        { text: 'Opened items: 30 days. Ask [EMAIL] or call [PHONE].', source: 'Returns policy v4, section 2' },
      ]),
    );
    await page.context().close();
  });

  it('takes one correction an answer: once it is sent, neither the thanks nor a later popover offers another', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('corr-once');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    const down = el.getByRole('button', { name: 'Not helpful' });
    const suggest = el.getByRole('button', { name: 'Suggest a correction' });
    await down.click();
    await el.getByRole('button', { name: 'Incomplete' }).click();
    // A reason alone: the thanks still offers to say what the answer should be.
    await el.getByText('Thank you for your feedback.').waitFor();
    await suggest.click();
    await el.getByLabel('What should the answer say?').fill('Opened items: 30 days.');
    await el.getByRole('button', { name: 'Send' }).click();
    await el.getByText('Thank you for your feedback.').waitFor();
    expect(await suggest.count()).toBe(0);
    await el.getByRole('button', { name: 'Close' }).click();
    // The vote taken back and cast again: the reasons come back, the correction link does not.
    await page.waitForTimeout(900);
    await down.click();
    await page.waitForTimeout(900);
    await down.click();
    await el.getByRole('dialog', { name: 'What went wrong?' }).waitFor();
    expect(await suggest.count()).toBe(0);
    await eventually(traceId, (ev) => expect(ofType(ev, 'correction').map((e) => e.detail)).toEqual([{ text: 'Opened items: 30 days.' }]));
    await page.context().close();
  });

  it('asks for the text of a correction of spaces only, as for an empty one, and sends nothing', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('corr-blank');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Suggest a correction' }).click();
    const text = el.getByLabel('What should the answer say?');
    await text.fill('   \n  ');
    await el.getByLabel('Where can we find it? (optional)').fill('Returns policy v4');
    await el.getByRole('button', { name: 'Send' }).click();
    // The browser's own message for a required field, on the field, which has the focus.
    await expect.poll(() => text.evaluate((t: HTMLTextAreaElement) => t.validity.valueMissing)).toBe(true);
    expect(await text.evaluate((t) => t === (t.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await expect(el.getByLabel('Where can we find it? (optional)').inputValue()).resolves.toBe('Returns policy v4');
    await text.fill('Opened items: 30 days.');
    await el.getByRole('button', { name: 'Send' }).click();
    await el.getByText('Thank you for your feedback.').waitFor();
    await eventually(traceId, (ev) =>
      expect(ofType(ev, 'correction').map((e) => e.detail)).toEqual([{ text: 'Opened items: 30 days.', source: 'Returns policy v4' }]),
    );
    await page.context().close();
  });

  it('flags a wrong source per citation, and records "something else" with its text', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('src');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Wrong source' }).click();
    await el.getByRole('button', { name: /Flag as wrong source: \[2\] Shipping guide/ }).click();
    await el.getByRole('button', { name: /Flagged: \[2\] Shipping guide/ }).waitFor();
    // Having named the wrong source, the user can say what the answer should have said.
    await el.getByRole('button', { name: 'Suggest a correction' }).click();
    await el.getByLabel('What should the answer say?').fill('Shipping takes 5 days.');
    await el.getByRole('button', { name: 'Send' }).click();
    await el.getByText('Thank you for your feedback.').waitFor();
    await eventually(traceId, (ev) => {
      expect(ofType(ev, 'wrong_source').map((e) => e.detail)).toEqual([{ chunkId: 'chunk-2' }]);
      expect(ofType(ev, 'attribution').map((e) => e.detail)).toEqual([{ reason: 'wrong_source' }]);
      expect(ofType(ev, 'correction').map((e) => e.detail)).toEqual([{ text: 'Shipping takes 5 days.' }]);
    });

    const other = newTraceId('other');
    await addAnswer(page, { traceId: other });
    const el2 = widget(page, other);
    await el2.getByRole('button', { name: 'Not helpful' }).click();
    await el2.getByRole('button', { name: 'Something else' }).click();
    await el2.getByLabel('Tell us more').fill('Too long, and the tone was off');
    await el2.getByRole('button', { name: 'Send' }).click();
    await eventually(other, (ev) =>
      expect(ofType(ev, 'attribution').map((e) => e.detail)).toEqual([{ reason: 'other', text: 'Too long, and the tone was off' }]),
    );
    await page.context().close();
  });

  it('offers each cited source once among the wrong ones, by its source list title, when inline links and a source list cite it', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('srcs');
    // As the demo shows an answer: numbered links in the text, then a source list of titles.
    await addAnswer(page, {
      traceId,
      html: `<p class="answer">Opened items can be returned <a href="#a" class="cite" data-chunk-id="chunk-a">[1]</a>,
          in 5 days <a href="#b" class="cite" data-chunk-id="chunk-b">[2]</a>, for a refund <a href="#a" class="cite" data-chunk-id="chunk-a">[1]</a>.</p>
        <ol class="sources">
          <li><a href="#a" data-chunk-id="chunk-a">Refund policy</a></li>
          <li><a href="#b" data-chunk-id="chunk-b">Shipping times</a></li>
          <li><a href="#c" data-chunk-id="chunk-c">${'Epithelial stem cells '.repeat(8)}</a></li>
        </ol>`,
    });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: 'Not helpful' }).click();
    await el.getByRole('button', { name: 'Wrong source' }).click();
    await el.getByRole('heading', { name: 'Which source is wrong?' }).waitFor();
    const flags = el.locator('[part~="flag"]');
    const names = () => flags.evaluateAll((buttons) => buttons.map((b) => b.textContent!.replace(/\s+/g, ' ').trim()));
    // A title longer than a label holds is cut with an ellipsis, not mid-word without a sign.
    const long = 'Epithelial stem cells '.repeat(8).trim();
    expect(await names()).toEqual([
      'Flag as wrong source: Refund policy',
      'Flag as wrong source: Shipping times',
      `Flag as wrong source: ${long.slice(0, 119)}…`,
    ]);
    await flags.first().click();
    await el.getByRole('button', { name: 'Flagged: Refund policy' }).waitFor();
    expect(await flags.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-pressed')))).toEqual(['true', 'false', 'false']);
    await eventually(traceId, (ev) => expect(ofType(ev, 'wrong_source').map((e) => e.detail)).toEqual([{ chunkId: 'chunk-a' }]));
    await page.context().close();
  });

  it('lists the wrong sources by the numbers the reader sees, whatever order the answer cites them in', async () => {
    const { page } = await openHost(browser());
    const cite = (chunk: string, n: number, title: string, text = `[${n}]`) =>
      `<a href="#${chunk}" data-chunk-id="${chunk}" title="[${n}] ${title}">${text}</a>`;
    const names = async (traceId: string) => {
      const el = widget(page, traceId);
      await el.getByRole('button', { name: 'Not helpful' }).click();
      await el.getByRole('button', { name: 'Wrong source' }).click();
      await el.getByRole('heading', { name: 'Which source is wrong?' }).waitFor();
      return el.locator('[part~="flag"]').evaluateAll((buttons) => buttons.map((b) => b.textContent!.replace(/\s+/g, ' ').trim()));
    };
    // As the demo shows an answer: [10] and [2] cited before [1], each link titled with its number.
    const demo = newTraceId('src-order');
    await addAnswer(page, {
      traceId: demo,
      html: `<p class="answer">Warranty claims take a month ${cite('w', 10, 'Warranty')}, shipping 5 days ${cite('s', 2, 'Shipping times')},
          and opened items can be returned ${cite('r', 1, 'Refund policy')}.</p>
        <ol class="sources">
          <li>${cite('r', 1, 'Refund policy', 'Refund policy')}</li>
          <li>${cite('s', 2, 'Shipping times', 'Shipping times')}</li>
          <li value="10">${cite('w', 10, 'Warranty', 'Warranty')}</li>
        </ol>`,
    });
    expect(await names(demo)).toEqual([
      'Flag as wrong source: [1] Refund policy',
      'Flag as wrong source: [2] Shipping times',
      'Flag as wrong source: [10] Warranty',
    ]);
    // Numbers in the links' text alone, a source list of titles, and a source no link numbers: it comes last.
    const plain = newTraceId('src-order-plain');
    await addAnswer(page, {
      traceId: plain,
      html: `<p class="answer">Glossary <a href="#g" data-chunk-id="g">Terms</a>. Shipping takes 5 days <a href="#s" data-chunk-id="s">[2]</a>;
          returns <a href="#r" data-chunk-id="r">[1]</a>.</p>
        <ol class="sources"><li><a href="#r" data-chunk-id="r">Refund policy</a></li><li><a href="#s" data-chunk-id="s">Shipping times</a></li></ol>`,
    });
    expect(await names(plain)).toEqual(['Flag as wrong source: Refund policy', 'Flag as wrong source: Shipping times', 'Flag as wrong source: Terms']);
    await page.context().close();
  });

  it('offers a 1-5 rating in rating mode; two stars or fewer asks why', async () => {
    const { page } = await openHost(browser(), { options: { config: { rating: true }, loadConfig: false } });
    const traceId = newTraceId('rate');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: '2 of 5 stars' }).click();
    await el.getByRole('dialog', { name: 'What went wrong?' }).waitFor();
    await eventually(traceId, (ev) => expect(ofType(ev, 'rating').map((e) => [e.detail.stars, e.signalValue])).toEqual([[2, -0.5]]));
    await page.context().close();
  });

  it('gives focus back to the star pressed when Escape closes the popover in rating mode', async () => {
    const { page } = await openHost(browser(), { options: { config: { rating: true }, loadConfig: false } });
    const traceId = newTraceId('rate-kbd');
    await addAnswer(page, { traceId });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: '2 of 5 stars' }).focus();
    await page.keyboard.press('Enter');
    const dialog = el.getByRole('dialog', { name: 'What went wrong?' });
    await dialog.waitFor();
    await expect.poll(async () => (await focusedInWidget(page, traceId)).text).toBe("Didn't answer my question");
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedInWidget(page, traceId)).toEqual({ text: '2', label: '2 of 5 stars' });
    await page.context().close();
  });

  it('speaks Simplified Chinese when the page or the element asks for it', async () => {
    const { page } = await openHost(browser());
    const traceId = newTraceId('zh');
    await addAnswer(page, { traceId, attrs: { locale: 'zh-CN' } });
    const el = widget(page, traceId);
    await el.getByRole('button', { name: '没有帮助' }).click();
    await el.getByRole('dialog', { name: '哪里有问题？' }).waitFor();
    expect(await el.getByRole('button', { name: '引用来源有问题' }).isVisible()).toBe(true);
    await page.context().close();
  });
});
