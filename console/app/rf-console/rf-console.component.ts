import { html, LitElement, nothing, type PropertyDeclarations, type ReactiveElement, type TemplateResult } from 'lit';
import { api, UNAUTHORIZED_EVENT } from '../../api/client.ts';
import { initialLocale, saveLocale } from '../../i18n/locale.ts';
import { format, LOCALE_NAMES, LOCALES, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { adminKey, forgetAdminKey } from '../admin-key.ts';
import { isHome, navigate, type PageName, paths, type Route, routeOf, watchLocation } from '../router.ts';
import { SigningOut } from '../signing-out.ts';
import { applyTheme, initialTheme, THEMES, type Theme } from '../theme.ts';
import { styles } from './rf-console.styles.ts';

/** Each page's code, loaded the first time the page is opened. */
const PAGES: Record<Exclude<PageName, 'not-found'>, () => Promise<unknown>> = {
  review: () => import('../../pages/review/review-page.ts'),
  health: () => import('../../pages/health/health-page.ts'),
  worst: () => import('../../pages/worst/worst-page.ts'),
  trace: () => import('../../pages/trace/trace-page.ts'),
  documents: () => import('../../pages/documents/documents-page.ts'),
  chunks: () => import('../../pages/chunks/chunks-page.ts'),
  corrections: () => import('../../pages/corrections/corrections-page.ts'),
  prompts: () => import('../../pages/prompts/prompts-page.ts'),
  models: () => import('../../pages/models/models-page.ts'),
  'dead-letters': () => import('../../pages/dead-letters/dead-letters-page.ts'),
  settings: () => import('../../pages/settings/settings-page.ts'),
};

type Gate = 'signed-in' | 'signed-out' | 'unauthorized';

/** Tries at naming the signed-in project before the header goes without it, each given this long: a busy dev server can leave a request unanswered. */
const PROJECT_ATTEMPTS = 5;
const PROJECT_TIMEOUT_MS = 5_000;

/** GET /v1/admin/project: the project the admin key belongs to. */
interface Project {
  id: string;
  name: string;
  /** What the key may do: everything, or read the loop's figures alone (a viewer key). */
  access?: 'admin' | 'viewer';
  /** The Worker's settings holding a value they do not take, each said in a sentence. */
  configProblems?: { variable: string; message: string }[];
}

/** The pages a viewer key reads: the loop's figures, none of what users asked. */
const VIEWER_PAGES: ReadonlySet<PageName> = new Set(['health', 'chunks', 'models', 'not-found']);
/** The pages that read the same whatever the key may do: shown before that is known. */
const ANY_KEY_PAGES: ReadonlySet<PageName> = new Set(['health', 'not-found']);

/**
 * The console's frame: sign-in gate, header (pages, language, theme, sign-out) and the page the
 * URL names. Pages get the route and the strings as properties and load their own data.
 */
export class RfConsole extends LitElement {
  static override properties: PropertyDeclarations = {
    locale: { state: true },
    strings: { state: true },
    localeFailed: { state: true },
    theme: { state: true },
    route: { state: true },
    gate: { state: true },
    notice: { state: true },
    project: { state: true },
    accessKnown: { state: true },
    failedPage: { state: true },
  };

  declare locale: Locale;
  /** The words of `locale`, once fetched: the frame shows nothing before. */
  declare strings: Strings | undefined;
  /** A language asked for whose words could not be fetched: the one shown stays. */
  declare localeFailed: Locale | undefined;
  declare theme: Theme;
  declare route: Route;
  declare gate: Gate;
  declare notice: string | undefined;
  /** The signed-in key's project, named in the header: with several admin keys, which one this is. */
  declare project: Project | undefined;
  /**
   * Whether what the key may do is known (the project named, or naming it given up on): until
   * then only pages that read the same for any key are shown, so a viewer key never sees an
   * admin page start loading, nor the models page's buttons.
   */
  declare accessKnown: boolean;
  /** The page whose code could not be fetched (a deploy since this tab opened replaced its chunk, say). */
  declare failedPage: PageName | undefined;

  private stopWatching?: () => void;
  /** The language asked for last: words of one asked for before it that come after are not shown. */
  private wanted: Locale;
  private readonly onUnauthorized = () => {
    forgetAdminKey();
    this.gate = 'unauthorized';
    this.project = undefined;
    this.accessKnown = false;
  };

  constructor() {
    super();
    this.locale = this.wanted = initialLocale();
    // Fetched while the page's code is, not after it.
    void this.firstLocale(this.locale);
    this.theme = initialTheme();
    this.route = routeOf(new URL(location.href));
    this.gate = adminKey() ? 'signed-in' : 'signed-out';
    this.accessKnown = false;
  }

  /**
   * The frame renders into the document, not a shadow root, so its main region is one the browser
   * finds by id: the skip link is a plain link to #main (the pages keep their own shadow roots).
   */
  protected override createRenderRoot() {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...[baseStyles, styles].map((s) => s.styleSheet!)];
    return this;
  }

  override connectedCallback() {
    super.connectedCallback();
    applyTheme(this.theme);
    this.stopWatching = watchLocation(() => this.follow(routeOf(new URL(location.href))));
    window.addEventListener(UNAUTHORIZED_EVENT, this.onUnauthorized);
    if (this.gate === 'signed-in') this.loadProject();
  }

  /**
   * Names the signed-in key's project. A failure (a busy collector) is tried again a little later,
   * a few times, then leaves the header without it; a 401 signs out as anywhere.
   */
  private loadProject(attempt = 0) {
    const key = adminKey();
    const current = () => this.gate === 'signed-in' && adminKey() === key;
    api<Project>('/v1/admin/project', { timeoutMs: PROJECT_TIMEOUT_MS }).then(
      (project) => {
        if (!current()) return;
        this.project = project;
        this.accessKnown = true;
        // A viewer key may not read the review queue: the console's home is loop health for it.
        if (project.access === 'viewer' && isHome(new URL(location.href))) navigate(paths.health(), { replace: true });
      },
      () => {
        if (!current()) return;
        if (attempt < PROJECT_ATTEMPTS - 1) setTimeout(() => current() && this.loadProject(attempt + 1), 1_000 * 2 ** attempt);
        // The API still refuses a viewer key what it may not do.
        else this.accessKnown = true;
      },
    );
  }

  /** Shows the page the address names now (a link, back or forward, a filter changing). */
  private follow(route: Route) {
    const before = this.route;
    this.route = route;
    if (route.page !== before.page || JSON.stringify(route.params) !== JSON.stringify(before.params)) void this.keepFocusOnPage();
  }

  /**
   * Another page replaced the one that had focus (a link followed in it, back or forward): the
   * keyboard goes to the new page, as the skip link takes it, rather than to the document's body.
   */
  private async keepFocusOnPage() {
    await this.updateComplete;
    await (this.querySelector('#main > *') as ReactiveElement | null)?.updateComplete;
    if (!document.activeElement || document.activeElement === document.body) this.querySelector<HTMLElement>('#main')?.focus();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.stopWatching?.();
    window.removeEventListener(UNAUTHORIZED_EVENT, this.onUnauthorized);
  }

  /**
   * The first words shown. Failing the language wanted's, English's are tried, so the console still
   * shows and says which failed; failing those too, the frame says so in both languages (render).
   */
  private async firstLocale(locale: Locale) {
    if ((await this.showLocale(locale)) || locale === 'en') return;
    if (await this.showLocale('en')) this.localeFailed = locale;
  }

  /**
   * Shows a language once its words are fetched. Failing (a deploy since this tab opened replaced
   * their file), the language shown stays, its name back in the menu, and the frame says so.
   * Resolves to whether the words came.
   */
  private async showLocale(locale: Locale): Promise<boolean> {
    this.wanted = locale;
    try {
      const strings = await LOCALES[locale]();
      if (this.wanted !== locale) return false;
      this.strings = strings;
      this.locale = locale;
      this.localeFailed = undefined;
      document.documentElement.lang = locale;
      return true;
    } catch {
      if (this.wanted !== locale) return false;
      this.wanted = this.locale;
      this.localeFailed = locale;
      const menu = this.querySelector<HTMLSelectElement>('select[name="language"]');
      if (menu) menu.value = this.locale;
      return false;
    }
  }

  override willUpdate() {
    if (this.gate === 'signed-in' && this.route.page !== 'not-found') this.loadPage(this.route.page);
    const s = this.strings;
    if (s) document.title = [this.pageTitle(s), this.gate === 'signed-in' ? this.project?.name : undefined, s.appTitle].filter(Boolean).join(' · ');
  }

  /** Fetches a page's code; failing, the page says so in place of a blank one. */
  private loadPage(page: Exclude<PageName, 'not-found'>) {
    PAGES[page]().catch(() => {
      this.failedPage = page;
    });
  }

  private pageTitle(s: Strings): string {
    if (this.gate === 'signed-out') return s.signInTitle;
    if (this.gate === 'unauthorized') return s.unauthorizedTitle;
    return {
      review: s.reviewTitle,
      health: s.healthTitle,
      worst: s.worstTitle,
      trace: format(s.traceTitle, { id: this.route.params.traceId ?? '' }),
      documents: s.documentsTitle,
      chunks: s.chunkUseTitle,
      corrections: s.correctionsTitle,
      prompts: s.promptsTitle,
      models: s.modelsTitle,
      'dead-letters': s.deadLettersTitle,
      settings: s.settingsTitle,
      'not-found': s.notFoundTitle,
    }[this.route.page];
  }

  override render() {
    const s = this.strings;
    // No words yet, or none at all: English's failed too (or were the ones wanted).
    if (!s) return this.localeFailed === 'en' ? this.renderNoWords() : nothing;
    return html`<a class="skip" href="#main">${s.skipToContent}</a>
      <header>
        <span class="brand">${s.appTitle}</span>
        ${this.gate === 'signed-in' && this.project ? this.renderProject(this.project, s) : null}
        ${this.gate === 'signed-in' ? this.renderNav(s) : null}
        <span class="spacer"></span>
        <div class="controls">
          <label
            >${s.language}
            <select name="language" @change=${this.changeLocale}>
              ${(Object.keys(LOCALES) as Locale[]).map((l) => html`<option value=${l} ?selected=${l === this.locale}>${LOCALE_NAMES[l]}</option>`)}
            </select>
          </label>
          <label
            >${s.theme}
            <select @change=${this.changeTheme}>
              ${THEMES.map((t) => html`<option value=${t} ?selected=${t === this.theme}>${s[`theme${t[0]!.toUpperCase()}${t.slice(1)}` as 'themeSystem']}</option>`)}
            </select>
          </label>
          ${this.gate === 'signed-in' ? html`<button @click=${this.signOut}>${s.signOut}</button>` : null}
        </div>
      </header>
      ${
        this.localeFailed
          ? html`<p class="notice error" role="alert" data-field="language-load-failed">
              ${format(s.languageLoadFailed, { language: LOCALE_NAMES[this.localeFailed] })}
              <button type="button" class="retry" @click=${() => location.reload()}>${s.reload}</button>
            </p>`
          : null
      }
      ${this.gate === 'signed-in' && this.project?.configProblems?.length ? this.renderConfigProblems(this.project.configProblems, s) : null}
      <main id="main" tabindex="-1">${this.renderMain(s)}</main>`;
  }

  /** Said in both languages, since neither's words came; Chromium keeps a failed import for the document's life, so the button reloads. */
  private renderNoWords() {
    return html`<p class="notice error" role="alert" data-field="console-load-failed">
      <span lang="en">The console could not be loaded</span> · <span lang="zh-CN">无法加载控制台</span>
      <button type="button" class="retry" @click=${() => location.reload()}><span lang="en">Reload</span> · <span lang="zh-CN">重新加载</span></button>
    </p>`;
  }

  private renderProject(p: Project, s: Strings) {
    return html`<span class="project" data-field="project"
      >${s.project} <strong>${p.name}</strong>${p.name === p.id ? null : html` <span class="mono">(${p.id})</span>`}</span
    >`;
  }

  /** A setting mistyped is read as its safe value meanwhile: said on every page until it is set right. */
  private renderConfigProblems(problems: NonNullable<Project['configProblems']>, s: Strings) {
    return html`<section class="notice config-problems" data-field="config-problems" aria-labelledby="config-problems-title">
      <h2 id="config-problems-title">${s.configProblemsTitle}</h2>
      <ul>
        ${problems.map((p) => html`<li data-variable=${p.variable}>${p.message}</li>`)}
      </ul>
    </section>`;
  }

  /** Signed in with a viewer key (known once the project has been named). */
  private get viewer(): boolean {
    return this.project?.access === 'viewer';
  }

  private renderNav(s: Strings) {
    const link = (page: PageName, href: string, text: string) =>
      this.viewer && !VIEWER_PAGES.has(page) ? nothing : html`<a href=${href} aria-current=${this.route.page === page ? 'page' : 'false'}>${text}</a>`;
    return html`<nav aria-label=${s.navLabel}>
      ${link('review', paths.review(), s.navReview)} ${link('health', paths.health(), s.navHealth)} ${link('worst', paths.worst(), s.navWorst)} ${link('documents', paths.documents(), s.navDocuments)}
      ${link('chunks', paths.chunks(), s.navChunks)}
      ${link('corrections', paths.corrections(), s.navCorrections)} ${link('prompts', paths.prompts(), s.navPrompts)}
      ${link('models', paths.models(), s.navModels)}
      ${link('dead-letters', paths.deadLetters(), s.navDeadLetters)}
      ${link('settings', paths.settings(), s.navSettings)}
    </nav>`;
  }

  private renderMain(s: Strings): TemplateResult {
    if (this.gate === 'signed-out') {
      return html`<rf-sign-in-page .strings=${s} .notice=${this.notice} @rf-signed-in=${this.signedIn}></rf-sign-in-page>`;
    }
    if (this.gate === 'unauthorized') {
      return html`<rf-unauthorized-page .strings=${s} @rf-sign-in-again=${() => (this.gate = 'signed-out')}></rf-unauthorized-page>`;
    }
    const { route, locale } = this;
    if (!this.accessKnown && !ANY_KEY_PAGES.has(route.page)) return html`<p role="status">${s.loading}</p>`;
    if (this.viewer && !VIEWER_PAGES.has(route.page)) {
      return html`<section class="card" data-field="viewer-only">
        <h1>${s.viewerOnlyTitle}</h1>
        <p>${s.viewerOnlyBody}</p>
        <a href=${paths.health()}>${s.navHealth}</a> · <a href=${paths.chunks()}>${s.navChunks}</a> · <a href=${paths.models()}>${s.navModels}</a>
      </section>`;
    }
    if (this.failedPage === route.page) {
      // Chromium keeps a failed import for the document's life: asking again fails again, so the button reloads.
      return html`<section class="card" data-field="page-load-failed">
        <h1>${this.pageTitle(s)}</h1>
        <p class="error" role="alert">${s.pageLoadFailed} <button type="button" class="retry" @click=${() => location.reload()}>${s.reload}</button></p>
      </section>`;
    }
    switch (route.page) {
      case 'review':
        return html`<rf-review-page .strings=${s} .locale=${locale} .route=${route}></rf-review-page>`;
      case 'health':
        return html`<rf-health-page .strings=${s} .locale=${locale} .route=${route}></rf-health-page>`;
      case 'worst':
        return html`<rf-worst-page .strings=${s} .locale=${locale} .route=${route}></rf-worst-page>`;
      case 'trace':
        return html`<rf-trace-page .strings=${s} .locale=${locale} .route=${route}></rf-trace-page>`;
      case 'documents':
        return html`<rf-documents-page .strings=${s} .locale=${locale} .route=${route}></rf-documents-page>`;
      case 'chunks':
        return html`<rf-chunks-page .strings=${s} .locale=${locale} .route=${route}></rf-chunks-page>`;
      case 'corrections':
        return html`<rf-corrections-page .strings=${s} .locale=${locale} .route=${route}></rf-corrections-page>`;
      case 'prompts':
        return html`<rf-prompts-page .strings=${s} .locale=${locale} .route=${route}></rf-prompts-page>`;
      case 'models':
        return html`<rf-models-page .strings=${s} .locale=${locale} .route=${route} ?readOnly=${this.viewer}></rf-models-page>`;
      case 'dead-letters':
        return html`<rf-dead-letters-page .strings=${s} .locale=${locale} .route=${route}></rf-dead-letters-page>`;
      case 'settings':
        return html`<rf-settings-page .strings=${s} .locale=${locale} .route=${route}></rf-settings-page>`;
      default:
        return html`<section class="card"><h1>${s.notFoundTitle}</h1><p>${s.notFoundBody}</p><a href=${paths.review()}>${s.navReview}</a></section>`;
    }
  }

  /** The choice is kept at once: a reload before its words come (or after they failed to) still makes it. */
  private changeLocale(e: Event) {
    const locale = (e.target as HTMLSelectElement).value as Locale;
    saveLocale(locale);
    void this.showLocale(locale);
  }

  private changeTheme(e: Event) {
    this.theme = (e.target as HTMLSelectElement).value as Theme;
    applyTheme(this.theme);
  }

  /** The sign-in form is gone: focus goes to the page that replaced it, as the skip link takes it there. */
  private async signedIn() {
    this.notice = undefined;
    this.gate = 'signed-in';
    this.loadProject();
    await this.updateComplete;
    this.querySelector<HTMLElement>('#main')?.focus();
  }

  private signOut() {
    // Work under way (a review answer on its way, a note typed, an erasure running) is asked about first, as closing the tab is.
    const signingOut = new SigningOut();
    window.dispatchEvent(signingOut);
    // Its button is shown with the words.
    const s = this.strings!;
    for (const question of signingOut.questions) if (!confirm(s[question])) return;
    forgetAdminKey();
    this.project = undefined;
    this.accessKnown = false;
    this.notice = s.signedOut;
    this.gate = 'signed-out';
  }
}
