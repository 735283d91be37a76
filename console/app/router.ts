/**
 * Path-based routing under /admin: the URL names the page and its filters (query parameters),
 * so every view can be bookmarked, shared and reloaded. The table is data: a page is added with
 * one line here and one case in the shell.
 */
export const BASE = '/admin';

export type PageName =
  | 'review'
  | 'health'
  | 'worst'
  | 'trace'
  | 'documents'
  | 'chunks'
  | 'corrections'
  | 'prompts'
  | 'models'
  | 'dead-letters'
  | 'settings'
  | 'not-found';

export interface Route {
  page: PageName;
  /** Path segments the pattern names, decoded. */
  params: Record<string, string>;
  /** The page's filters. */
  query: URLSearchParams;
}

/** The console's home, /admin: the review queue, or loop health for a viewer key (the shell sends it there). */
const HOME = /^\/admin\/?$/;

export const isHome = (url: URL): boolean => HOME.test(url.pathname);

const ROUTES: { page: PageName; pattern: RegExp }[] = [
  { page: 'review', pattern: HOME },
  { page: 'review', pattern: /^\/admin\/review\/?$/ },
  { page: 'health', pattern: /^\/admin\/health\/?$/ },
  { page: 'worst', pattern: /^\/admin\/traces\/?$/ },
  { page: 'trace', pattern: /^\/admin\/traces\/(?<traceId>[^/]+)\/?$/ },
  { page: 'documents', pattern: /^\/admin\/documents\/?$/ },
  { page: 'chunks', pattern: /^\/admin\/chunks\/?$/ },
  { page: 'corrections', pattern: /^\/admin\/corrections\/?$/ },
  { page: 'prompts', pattern: /^\/admin\/prompts\/?$/ },
  { page: 'models', pattern: /^\/admin\/models\/?$/ },
  { page: 'dead-letters', pattern: /^\/admin\/dead-letters\/?$/ },
  { page: 'settings', pattern: /^\/admin\/settings\/?$/ },
];

/** `s` decoded, or undefined when it is not valid percent-encoding (a link cut after `%E0`). */
const decoded = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
};

export function routeOf(url: URL): Route {
  const notFound: Route = { page: 'not-found', params: {}, query: url.searchParams };
  for (const { page, pattern } of ROUTES) {
    const m = pattern.exec(url.pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(m.groups ?? {})) {
      if (value === undefined) continue;
      const param = decoded(value);
      if (param === undefined) return notFound;
      params[name] = param;
    }
    return { page, params, query: url.searchParams };
  }
  return notFound;
}

const withQuery = (path: string, query: Record<string, string | undefined> = {}) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
};

/** The address of each page, with its filters. */
export const paths = {
  review: (query: { status?: string; item?: string } = {}) => withQuery(`${BASE}/review`, query),
  health: (query: { days?: string } = {}) => withQuery(`${BASE}/health`, query),
  worst: (query: Record<string, string | undefined> = {}) => withQuery(`${BASE}/traces`, query),
  trace: (traceId: string) => `${BASE}/traces/${encodeURIComponent(traceId)}`,
  documents: () => `${BASE}/documents`,
  chunks: (query: { sort?: string; minShown?: string } = {}) => withQuery(`${BASE}/chunks`, query),
  corrections: (query: { status?: string; owner?: string } = {}) => withQuery(`${BASE}/corrections`, query),
  prompts: () => `${BASE}/prompts`,
  models: () => `${BASE}/models`,
  deadLetters: () => `${BASE}/dead-letters`,
  settings: () => `${BASE}/settings`,
};

const NAVIGATE = 'rf-navigate';

/** Goes to `href` without reloading; `replace` keeps the history entry (a filter or position changing). */
export function navigate(href: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATE));
}

/** Calls `onChange` on every navigation (links, back and forward); answers a function that stops it. */
export function watchLocation(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE, onChange);
  };
}

/**
 * A click on a console link (an `<a href="/admin/…">` anywhere, shadow roots included) becomes a
 * navigation without a reload; modified clicks (new tab, download) are left to the browser.
 */
export function interceptLinks(root: EventTarget): void {
  root.addEventListener('click', (e) => {
    const ev = e as MouseEvent;
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const a = ev.composedPath().find((n): n is HTMLAnchorElement => n instanceof HTMLAnchorElement);
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    // A link within the page (the skip link to #main) is the browser's to follow.
    if (url.hash && url.href.split('#')[0] === location.href.split('#')[0]) return;
    if (url.origin !== location.origin || !(url.pathname === BASE || url.pathname.startsWith(`${BASE}/`))) return;
    ev.preventDefault();
    navigate(url.pathname + url.search);
  });
}
