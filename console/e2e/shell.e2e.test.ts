import { describe, expect, it } from 'vitest';
import { provisionProject } from '../../collector/auth/provision.ts';
import { queryEach } from '../../scripts/local-d1-sql.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { axe } from './axe.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

const storedKeys = (page: import('playwright-core').Page) =>
  page.evaluate(() => ({ session: sessionStorage.getItem('rf-console-admin-key'), local: JSON.stringify({ ...localStorage }) }));

/** The element with keyboard focus, through shadow roots, and the landmarks around it. */
const focused = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    const within = (selector: string) => {
      for (let at: Element | undefined = el ?? undefined; at; at = (at.getRootNode() as ShadowRoot).host) if (at.closest(selector)) return true;
      return false;
    };
    return { tag: el?.localName, text: el?.textContent?.trim(), inMain: within('main'), inNav: within('nav') };
  });

describe('the console: served at /admin, signed in with the admin key', () => {
  it('is served from the collector with a strict CSP, and signs in with the admin key only', async () => {
    const f = fixture();
    const res = await fetch(`${f.collector.url}/admin/review`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);

    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { signedIn: false });
    try {
      // It says where a key is found.
      await page.getByText('keeps them in .dev-keys.json').waitFor();
      // It names what a viewer key reads: every page a viewer is shown.
      await page.getByText('or its viewer key, for loop health, chunks and models alone').waitFor();
      const key = page.getByLabel('Admin key');
      await key.fill('rfa_not_a_real_key_at_all_0000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('not accepted');

      await key.fill(f.collector.keys.write);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A viewer key signs in too, so a write key is refused as neither.
      await expect
        .poll(() => page.getByRole('alert').first().textContent())
        .toBe('That is neither an admin key nor a viewer key. The console needs the project’s admin key (rfa_…) or its viewer key (rfv_…).');

      await key.fill(f.collector.keys.admin);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      // The sign-in form is gone: focus goes to the page that replaced it, not back to the top.
      expect(await focused(page)).toMatchObject({ tag: 'main' });
      // The key stays in this tab's session storage: never in local storage or the address.
      const stored = await storedKeys(page);
      expect(stored.session).toBe(f.collector.keys.admin);
      expect(stored.local).not.toContain(f.collector.keys.admin);
      expect(page.url()).not.toContain(f.collector.keys.admin);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says a key pasted with a character no key has is not a key, not that the collector cannot be reached', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { signedIn: false, locale: 'zh-CN' });
    try {
      const key = page.locator('rf-sign-in-page input#key');
      const alert = page.getByRole('alert').first();
      // The README's placeholder with its ellipsis, a key in curly quotes, one with a zero-width space copied after it.
      for (const pasted of ['rfa_…', `“${f.collector.keys.admin}”`, `${f.collector.keys.admin}\u200b`]) {
        await key.fill(pasted);
        await page.getByRole('button', { name: '登录' }).click();
        await expect
          .poll(() => alert.textContent())
          .toBe('粘贴的内容不是密钥：密钥中没有空格、省略号（…）或弯引号。请只复制完整的密钥本身，即 npm start 打印的那样。');
        expect(await key.getAttribute('aria-invalid')).toBe('true');
        await key.fill('');
        await expect.poll(() => key.getAttribute('aria-invalid')).toBe('false');
      }
      await page.getByLabel('语言').selectOption('en');
      await key.fill('rfa_…');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => alert.textContent())
        .toBe('That is not a key as pasted: a key holds no spaces, ellipses (…) or curly quotes. Copy the whole key alone, as npm start prints it.');
      // Spaces around it are no part of it.
      await key.fill(` ${f.collector.keys.admin}\n`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a clear page when the key stops being accepted, and signs in again from there', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review', { signedIn: false });
    try {
      await page.evaluate(() => sessionStorage.setItem('rf-console-admin-key', 'rfa_revoked_key_000000000000000000'));
      await page.reload();
      await page.getByRole('heading', { name: 'Your admin key was not accepted' }).waitFor();
      expect((await storedKeys(page)).session).toBeNull();
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await page.getByLabel('Admin key').waitFor();
    } finally {
      await context.close();
    }
  });

  it('skips to the page content: the first Tab reaches the skip link, Enter moves focus past the header', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to content' });
      await page.keyboard.press('Enter');
      expect(await focused(page)).toMatchObject({ tag: 'main' });
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ inMain: true, inNav: false });
      expect(new URL(page.url()).pathname).toBe('/admin/review');
      expect(await axe(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('starts the sign-in page in the key field, past the header: Tab goes on to Sign in, Shift+Tab back to the header and the skip link', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { signedIn: false });
    try {
      await page.getByLabel('Admin key').waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'input', inMain: true });
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Sign in', inMain: true });
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toMatchObject({ tag: 'select', inMain: false });
      // Back past the header's controls (language, theme), the skip link still leads to the form.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to content' });
      await page.keyboard.press('Enter');
      expect(await focused(page)).toMatchObject({ tag: 'main' });
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'input', inMain: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs out: the key leaves the tab and a reload stays signed out', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You are signed out.').waitFor();
      expect((await storedKeys(page)).session).toBeNull();
      await page.reload();
      await page.getByLabel('Admin key').waitFor();
    } finally {
      await context.close();
    }
  });

  it('speaks Chinese or English and keeps the choice; follows the system theme and can be switched', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { locale: 'zh-CN', colorScheme: 'dark' });
    try {
      await page.getByRole('heading', { name: '审核队列', level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      expect(await background()).toBe('rgb(13, 17, 23)');
      await page.getByLabel('主题').selectOption('light');
      expect(await background()).toBe('rgb(255, 255, 255)');
      await page.getByLabel('语言').selectOption('en');
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      expect(await background()).toBe('rgb(255, 255, 255)');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('routes by address: pages, links without reloads, back, and a page for unknown addresses', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/nowhere');
    try {
      await page.getByRole('heading', { name: 'No such page' }).waitFor();
      await page.evaluate(() => ((window as any).marker = 'same page'));
      await page.getByRole('navigation').getByRole('link', { name: 'Review queue' }).click();
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/review');
      expect(await page.evaluate(() => (window as any).marker)).toBe('same page');
      await page.goBack();
      await page.getByRole('heading', { name: 'No such page' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('keeps the sign-in form when a request of the session just signed out of is refused late', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/v1/admin/health?*', async (route) => {
        await held;
        await route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":{"code":"unauthorized","message":"Unknown key"}}' });
      });
      const asked = page.waitForRequest((r) => r.url().includes('/v1/admin/health?'));
      await page.getByRole('navigation').getByRole('link', { name: 'Loop health' }).click();
      await asked;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      const refused = page.waitForResponse((r) => r.url().includes('/v1/admin/health?'));
      release();
      await refused;
      await page.waitForTimeout(300);
      expect(await page.getByRole('heading', { name: 'Your admin key was not accepted' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('stays where the reader went back to when the page they left finishes loading', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/nowhere');
    try {
      await page.getByRole('heading', { name: 'No such page' }).waitFor();
      // The queue answers only after the reader has gone back.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/v1/admin/review?*', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('navigation').getByRole('link', { name: 'Review queue' }).click();
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { name: 'No such page' }).waitFor();
      const loaded = page.waitForResponse((r) => r.url().includes('/v1/admin/review?'));
      release();
      await loaded;
      await page.waitForTimeout(300);
      expect(new URL(page.url()).pathname).toBe('/admin/nowhere');
      expect(await page.getByRole('heading', { name: 'No such page' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('names the project of the admin key signed in with, so a reader with several keys knows which one this is', async () => {
    const f = fixture();
    const other = await provisionProject({ id: `other-${Date.now().toString(36)}`, name: 'Support site (staging)', origins: [] });
    await queryEach(other.statements, { persistTo: f.collector.persistTo });
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      const project = page.locator('rf-console [data-field="project"]');
      await expect.poll(() => project.textContent()).toBe('Project Throwaway local collector (local)');
      await expect.poll(() => page.title()).toBe('Review queue · Throwaway local collector · rag-feedback console');
      // Its settings all hold values they take: nothing is said of them (config-problems.e2e.test.ts).
      expect(await page.locator('rf-console [data-field="config-problems"]').count()).toBe(0);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Admin key').fill(other.keys.admin);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A busy collector may answer late: the header names the project once it does.
      await project.waitFor({ timeout: 30_000 });
      await expect.poll(() => project.textContent()).toBe(`Project Support site (staging) (${other.id})`);
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => project.textContent()).toBe(`项目 Support site (staging) (${other.id})`);
      expect(await axe(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('malformed address', () => {
  it('still shows the console (a page or "not found") for a trace link with a stray %', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/traces/abc%E0');
    try {
      await page.waitForTimeout(1_500);
      expect(problems).toEqual([]);
      expect(await page.locator('rf-console header').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
