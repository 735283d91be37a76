import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { Correction, FlaggedDocument, WorstTrace } from '../api/types.ts';
import { doubleClickSave, holdingSaves, openConsole, refusingSaves, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('worst traces', () => {
  it('lists the seeded worst traces, filters by address, and opens a trace', async () => {
    const f = fixture();
    const all: { traces: WorstTrace[] } = await f.admin('/v1/admin/worst-traces');
    expect(all.traces.length).toBeGreaterThan(5);
    const { page, context, problems } = await openConsole(browser(), f, '/admin/traces');
    try {
      const rows = page.locator('rf-worst-page table.worst tbody tr');
      await rows.first().waitFor();
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-trace')))).toEqual(all.traces.map((t) => t.traceId));
      expect(await rows.first().textContent()).toContain(all.traces[0]!.query);
      // An id as long as a UUID keeps its line, and the question beside it keeps room to be read:
      // the table scrolls in its box rather than squeeze the question into a few words a line.
      const cells = await rows.first().evaluate((tr) => {
        const [id, question] = tr.querySelectorAll('td');
        id!.querySelector('a')!.textContent = '7f3c9e2a-4b1d-4c8e-9a6f-2d5e8b1c0a47';
        return { question: question!.getBoundingClientRect().width, em: Number.parseFloat(getComputedStyle(question!).fontSize) };
      });
      expect(cells.question).toBeGreaterThanOrEqual(16 * cells.em);

      const strict: { traces: WorstTrace[] } = await f.admin('/v1/admin/worst-traces?below=-0.8&minSignals=2');
      await page.getByLabel('Weighted score below').fill('-0.8');
      await page.getByLabel('At least trusted signals').fill('2');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?minSignals=2&below=-0.8');
      await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-trace')))).toEqual(strict.traces.map((t) => t.traceId));

      // The address alone restores the filters.
      await page.reload();
      expect(await page.getByLabel('Weighted score below').inputValue()).toBe('-0.8');
      await rows.first().waitFor();
      const first = strict.traces[0]!.traceId;
      await page.getByRole('link', { name: first, exact: true }).click();
      await page.getByRole('heading', { name: `Trace ${first}` }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('worst traces filtered below any score', () => {
  it('applies a score between the arrow keys’ steps (-0.33), typed or from the address, with the other filters', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/traces?below=-0.33');
    try {
      const rows = page.locator('rf-worst-page table.worst tbody tr');
      await rows.first().waitFor();
      await page.getByLabel('At least trusted signals').fill('2');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?minSignals=2&below=-0.33');
      await page.getByLabel('Weighted score below').fill('-0.47');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?minSignals=2&below=-0.47');
      const strict: { traces: WorstTrace[] } = await f.admin('/v1/admin/worst-traces?below=-0.47&minSignals=2');
      await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-trace')))).toEqual(strict.traces.map((t) => t.traceId));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('documents', () => {
  it('shows the flagged documents with their evidence, and sets owners by pattern', async () => {
    const f = fixture();
    const { documents }: { documents: FlaggedDocument[] } = await f.admin('/v1/admin/documents');
    const refunds = documents.find((d) => d.sourceDocId === 'refunds.md')!;
    expect(refunds).toBeDefined();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/documents');
    try {
      const row = page.locator('rf-documents-page tr[data-document="refunds.md"]').first();
      await row.waitFor();
      const text = await row.textContent();
      // The tests it failed, in the console's words rather than the job's English sentences.
      expect(refunds.failed).toContain('badAnswers');
      expect(text).toContain('Answers citing it go bad more often than the project’s');
      expect(text).not.toContain(refunds.reasons[0]);
      // The counts the tests ran on, in words rather than field names.
      const c = refunds.counts;
      expect(text).toContain(`${c.negative} of ${c.scored} answers bad; project ${c.baselinePercent}%`);
      expect(text).toContain(
        c.before
          ? `re-asked: ${c.recentRequeried} of ${c.recent} lately, ${c.beforeRequeried} of ${c.before} before`
          : `re-asked: ${c.recentRequeried} of ${c.recent} lately, none asked before`,
      );
      expect(text).not.toContain('recentRequeried');
      // Flagged on one day only, the date is said once.
      const flagged = refunds.firstFlagged === refunds.lastFlagged ? refunds.firstFlagged : `${refunds.firstFlagged} – ${refunds.lastFlagged}`;
      expect(await row.locator('td').nth(5).textContent()).toBe(flagged);
      expect(await row.locator('a').count()).toBe(refunds.evidenceTraceIds.length);
      // Each trace id on one line, never broken at its hyphen, on a laptop's width too.
      await page.setViewportSize({ width: 1100, height: 760 });
      const lines = await row.locator('a.mono').evaluateAll((links) => links.map((a) => a.getClientRects().length));
      expect(lines).toEqual(refunds.evidenceTraceIds.map(() => 1));
      expect(text).toContain('no owner');

      // No rule yet: the empty table says what that means.
      expect(await page.locator('rf-documents-page [data-field="no-rules"]').textContent()).toMatch(/^No rules yet/);
      await page.getByRole('button', { name: 'Add a rule' }).click();
      expect(await page.locator('rf-documents-page [data-field="no-rules"]').count()).toBe(0);
      // Both fields left empty: each named, focus on the first in the table's order.
      await page.getByRole('button', { name: 'Save' }).click();
      const pattern = page.getByLabel('Pattern 1');
      await expect.poll(() => pattern.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input)).toBe(true);
      expect(await page.getByLabel('Owner 1').getAttribute('aria-invalid')).toBe('true');
      await pattern.fill('refunds*');
      // An owner of spaces only: refused beside its field, with focus there, and nothing saved.
      const owner = page.getByLabel('Owner 1');
      await owner.fill('   ');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => owner.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-documents-page #rule-0-owner-error').textContent()).toBe('must not be empty');
      expect(await owner.evaluate((input) => input.getAttribute('aria-describedby'))).toBe('rule-0-owner-error');
      expect(await owner.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input)).toBe(true);
      expect(await page.getByLabel('Pattern 1').getAttribute('aria-invalid')).toBe('false');
      expect(await f.admin('/v1/admin/owners')).toEqual({ owners: [] });
      await owner.fill('payments team');
      expect(await owner.getAttribute('aria-invalid')).toBe('false');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      await expect.poll(() => row.textContent()).toContain('payments team');
      expect(await f.admin('/v1/admin/owners')).toEqual({ owners: [{ pattern: 'refunds*', owner: 'payments team' }] });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses to overwrite owner rules another admin saved since the page was read, keeping the edit and showing theirs', async () => {
    const f = fixture();
    const rules = (...owners: [string, string][]) => ({ owners: owners.map(([pattern, owner]) => ({ pattern, owner })) });
    await f.admin('/v1/admin/owners', { method: 'PUT', json: rules(['refunds*', 'payments team']) });
    const { page, context, problems } = await openConsole(browser(), f, '/admin/documents');
    try {
      const owner = page.getByLabel('Owner 1');
      await expect.poll(() => owner.inputValue()).toBe('payments team');
      // Another admin saves their rules after this page was read.
      await f.admin('/v1/admin/owners', { method: 'PUT', json: rules(['refunds*', 'legal'], ['policies/*', 'legal']) });

      await owner.fill('billing');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Someone saved the owner rules meanwhile').waitFor();
      expect(await f.admin('/v1/admin/owners')).toEqual(rules(['refunds*', 'legal'], ['policies/*', 'legal']));
      // The edit stays; theirs are shown below it, and the flagged documents name their owner.
      expect(await owner.inputValue()).toBe('billing');
      expect(await page.locator('rf-documents-page [data-field="theirs"] li').allTextContents()).toEqual(['refunds* → legal', 'policies/* → legal']);
      await expect.poll(() => page.locator('rf-documents-page tr[data-document="refunds.md"]').first().textContent()).toContain('legal');

      // Saved again, knowingly, the edit replaces theirs.
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      expect(await f.admin('/v1/admin/owners')).toEqual(rules(['refunds*', 'billing']));
      expect(await page.locator('rf-documents-page [data-field="theirs"]').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await f.admin('/v1/admin/owners', { method: 'PUT', json: rules() });
      await context.close();
    }
  });
});

describe('owner rules saved with a double click', () => {
  it('saves once, and says it saved, not that someone else saved their rules meanwhile', async () => {
    const f = fixture();
    const saves = holdingSaves('/v1/admin/owners');
    const { page, context, problems } = await openConsole(browser(), f, '/admin/documents', { routes: saves.routes });
    try {
      await page.getByRole('button', { name: 'Add a rule' }).click();
      await page.getByLabel('Pattern 1').fill('refunds*');
      await page.getByLabel('Owner 1').fill('payments team');
      await doubleClickSave(page, saves, 'rf-documents-page .actions [role="status"]');
      expect(await page.locator('rf-documents-page [data-field="theirs"]').count()).toBe(0);
      expect(await f.admin('/v1/admin/owners')).toEqual({ owners: [{ pattern: 'refunds*', owner: 'payments team' }] });
      expect(problems).toEqual([]);
    } finally {
      saves.release();
      await f.admin('/v1/admin/owners', { method: 'PUT', json: { owners: [] } });
      await context.close();
    }
  });
});

describe('owner rules refused by the API', () => {
  it('marks every rule field it refused beside it, focus on the first in the table; one the form does not show goes to the status line', async () => {
    const f = fixture();
    const rules = (...owners: [string, string][]) => ({ owners: owners.map(([pattern, owner]) => ({ pattern, owner })) });
    await f.admin('/v1/admin/owners', { method: 'PUT', json: rules(['refunds*', 'payments team'], ['policies/*', 'legal']) });
    const { page, context, problems } = await openConsole(browser(), f, '/admin/documents', {
      // A code of a collector newer than the console: its own words are said, as text.
      routes: refusingSaves('/v1/admin/owners', 'over_plan', () => [
        { field: 'owners[1].owner', message: 'is not a team in the directory' },
        { field: 'owners[0].pattern', message: 'matches no document' },
        { field: 'owners[1].owner', message: 'is <b>retired</b>' },
        { field: 'owners', message: 'is over the plan’s 1 rule' },
      ]),
    });
    const description = (label: string) =>
      page
        .getByLabel(label, { exact: true })
        .evaluate((el) => (el.getRootNode() as ShadowRoot).getElementById(el.getAttribute('aria-describedby')!)?.textContent);
    try {
      const pattern = page.getByLabel('Pattern 1', { exact: true });
      const owner = page.getByLabel('Owner 2', { exact: true });
      await expect.poll(() => owner.inputValue()).toBe('legal');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => owner.getAttribute('aria-invalid')).toBe('true');
      expect(await pattern.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Owner 1', { exact: true }).getAttribute('aria-invalid')).toBe('false');
      expect(await page.getByLabel('Pattern 2', { exact: true }).getAttribute('aria-invalid')).toBe('false');
      expect(await description('Pattern 1')).toBe('was refused by the collector: matches no document');
      // Both refusals of the one field, as text, never markup.
      expect(await description('Owner 2')).toBe('was refused by the collector: is not a team in the directory; is <b>retired</b>');
      expect(await page.locator('rf-documents-page section.owners b').count()).toBe(0);
      expect(await pattern.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input)).toBe(true);
      const status = page.locator('rf-documents-page section.owners [role="status"]');
      expect(await status.textContent()).toBe('The collector answered 400: owners: is over the plan’s 1 rule');
      expect(await f.admin('/v1/admin/owners')).toEqual(rules(['refunds*', 'payments team'], ['policies/*', 'legal']));
      // Reworded with the language; editing a field takes its refusal away.
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => page.locator('rf-documents-page #rule-0-pattern-error').textContent()).toBe('被收集服务拒绝：matches no document');
      await page.getByLabel('语言').selectOption('en');
      await owner.fill('legal team');
      expect(await owner.getAttribute('aria-invalid')).toBe('false');
      expect(await pattern.getAttribute('aria-invalid')).toBe('true');
      expect(problems).toEqual([]);
    } finally {
      await f.admin('/v1/admin/owners', { method: 'PUT', json: rules() });
      await context.close();
    }
  });
});

describe('owner rules by keyboard', () => {
  it('moves a rule up with focus following it, so ↑ pressed again moves it on to the top', async () => {
    const f = fixture();
    const rules = (...owners: [string, string][]) => ({ owners: owners.map(([pattern, owner]) => ({ pattern, owner })) });
    await f.admin('/v1/admin/owners', { method: 'PUT', json: rules(['a*', 'team a'], ['b*', 'team b'], ['c*', 'team c']) });
    const { page, context, problems } = await openConsole(browser(), f, '/admin/documents');
    const patterns = () =>
      page.locator('rf-documents-page section.owners tbody input.mono').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    const focusedLabel = () =>
      page.evaluate(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.getAttribute('aria-label');
      });
    try {
      await expect.poll(patterns).toEqual(['a*', 'b*', 'c*']);
      await page.getByRole('button', { name: 'Move rule 3 up' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(patterns).toEqual(['a*', 'c*', 'b*']);
      await expect.poll(focusedLabel).toBe('Move rule 2 up');
      await page.keyboard.press('Enter');
      await expect.poll(patterns).toEqual(['c*', 'a*', 'b*']);
      // At the top, where ↑ is off, focus is on the rule's ✕.
      await expect.poll(focusedLabel).toBe('Remove rule 1');
      expect(problems).toEqual([]);
    } finally {
      await f.admin('/v1/admin/owners', { method: 'PUT', json: rules() });
      await context.close();
    }
  });
});

describe('corrections', () => {
  it('shows the inbox per owner, resolves one with a note, and shows it among the resolved', async () => {
    const f = fixture();
    const inbox: { owners: { owner: string | null; corrections: Correction[] }[] } = await f.admin('/v1/admin/corrections');
    const first = inbox.owners.flatMap((o) => o.corrections)[0]!;
    expect(first).toBeDefined();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/corrections');
    try {
      const item = page.locator(`rf-corrections-page article[data-event="${first.eventId}"]`);
      await item.waitFor();
      expect(await item.locator('[data-field="text"]').textContent()).toBe(first.text);
      expect(await item.locator('[data-field="query"]').textContent()).toBe(first.query);
      // Values start at one line in every card, whatever labels it has: a card's longest label
      // (a correction sent under a later answer, or none naming a source) does not move them.
      const query = item.locator('[data-field="query"]');
      const before = await query.evaluate((dd) => dd.getBoundingClientRect().left);
      await query.evaluate((dd) => {
        dd.previousElementSibling!.textContent = 'Sent under a later answer';
      });
      expect(await query.evaluate((dd) => dd.getBoundingClientRect().left)).toBe(before);

      // A note of spaces alone resolves nothing, and says so beside the field.
      const note = item.getByLabel('What was changed');
      await note.fill('   ');
      await item.getByRole('button', { name: 'Resolve' }).click();
      await expect.poll(() => item.locator(`[id="note-${first.eventId}-error"]`).textContent()).toBe('Write what was changed to resolve it.');
      expect(await note.getAttribute('aria-invalid')).toBe('true');
      const stillOpen: { owners: { corrections: Correction[] }[] } = await f.admin('/v1/admin/corrections');
      expect(stillOpen.owners.flatMap((o) => o.corrections.map((c) => c.eventId))).toContain(first.eventId);

      await note.fill('refunds.md now says 30 days');
      expect(await note.getAttribute('aria-invalid')).toBe('false');
      await item.getByRole('button', { name: 'Resolve' }).click();
      await item.waitFor({ state: 'detached' });
      const resolved: { owners: { corrections: Correction[] }[] } = await f.admin('/v1/admin/corrections?status=resolved');
      expect(resolved.owners.flatMap((o) => o.corrections)).toContainEqual(
        expect.objectContaining({ eventId: first.eventId, status: 'resolved', note: 'refunds.md now says 30 days' }),
      );

      await page.getByLabel('Show').selectOption('resolved');
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('resolved');
      await page.locator(`rf-corrections-page article[data-event="${first.eventId}"] .resolved`).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says in Chinese too that a correction needs a note to be resolved', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/corrections', { locale: 'zh-CN' });
    try {
      const item = page.locator('rf-corrections-page article.correction').first();
      await item.getByLabel('改了什么').fill(' ');
      await item.getByRole('button', { name: '标记为已处理' }).click();
      await expect.poll(() => item.locator('.resolve .error').textContent()).toBe('请写明改了什么，才能标记为已处理。');
    } finally {
      await context.close();
    }
  });
});
