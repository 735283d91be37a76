/**
 * The demo's chat page: asks the backend, shows each answer inside `<rag-feedback>` with numbered
 * citations and in-page previews, regenerates on request. Everything the user or the corpus
 * wrote is set as text, never as HTML.
 */

import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import type { RagFeedback as RagFeedbackApi, RagFeedbackElement } from '../../widget/index.ts';
import type { AskRequest, AskResponse } from '../server/answerer.ts';
import type { ClientConfig, Delivered } from '../server/app.ts';
import type { Citation } from '../server/citations.ts';

/** Served by the demo from dist/widget/; a variable, so the bundler leaves the import to the browser. */
const WIDGET_MODULE = '/widget/rag-feedback.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const chat = $<HTMLElement>('chat');
const form = $<HTMLFormElement>('ask');
const input = $<HTMLTextAreaElement>('query');
input.maxLength = MAX_QUERY_CHARS;
const status = $<HTMLElement>('status');
// The page keeps room for the fixed question box, however tall it is made (style.css reads its height).
new ResizeObserver(() => document.documentElement.style.setProperty('--ask-height', `${form.offsetHeight}px`)).observe(form);
const examples = $<HTMLElement>('examples');

let sessionId = crypto.randomUUID();
let nextTurn = 0;

/** A question the demo did not answer, with the code it refused it with, if it said one. */
class AskError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

async function ask(body: AskRequest): Promise<AskResponse> {
  const res = await fetch('/api/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // A proxy's error page or a cut-off body is no JSON: the status says more than a parse error.
  const json = (await res.json().catch(() => undefined)) as (AskResponse & { error?: { message?: string; code?: string } }) | undefined;
  if (!res.ok || !json)
    throw new AskError(json?.error?.message ?? `the demo answered HTTP ${res.status}${res.ok ? ' without an answer' : ''}`, json?.error?.code);
  return json;
}

/** Questions on their way: the status says "Searching…" until the last of them is answered. */
let searching = 0;

/**
 * The status line: "Searching…" while any question is, and what just happened for a screen
 * reader (an answer arrives away from the focus, which stays in the question box), read out once;
 * `shown`, for everyone, after "Searching…" rather than instead of it.
 */
function announce(said?: string, shown = false) {
  const text = shown && searching ? ` ${said}` : said;
  status.replaceChildren(searching ? 'Searching…' : '', ...(said ? [element('span', { className: shown ? '' : 'sr-only', textContent: text })] : []));
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]) {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

/** Whether any of `el` is on screen, above the fixed question box. */
function onScreen(el: Element): boolean {
  const { top, bottom } = el.getBoundingClientRect();
  return bottom > 0 && top < form.getBoundingClientRect().top;
}

/**
 * Whether the reader still waits where the reply to `turn` comes, at "Searching…" under the latest
 * question or at the button regenerating its answer (`again`, clicked or pressed), so it is brought
 * into view: not once they have asked another question or scrolled away.
 */
const waiting = (turn: HTMLElement, again?: HTMLElement) => (again ? onScreen(again) : turn === chat.lastElementChild && onScreen(status));

const citeLink = (c: Citation, label: string) => {
  // The title names the source wherever a link cites it, and labels it in the widget's wrong-source list.
  const a = element('a', { className: 'cite', href: `#${encodeURIComponent(c.chunkId)}`, textContent: label, title: `[${c.n}] ${c.title}` });
  a.dataset.chunkId = c.chunkId;
  // It opens and closes the source's preview in place: a screen reader says which.
  a.setAttribute('aria-expanded', 'false');
  return a;
};

/** The answer text with each `[n]` as a link to its citation. */
function answerParagraph(answer: string, citations: readonly Citation[]): HTMLParagraphElement {
  const byNumber = new Map(citations.map((c) => [c.n, c]));
  // Focusable by script alone: a regenerated answer takes the focus from the button that asked for it.
  const p = element('p', { className: 'answer', tabIndex: -1, dir: 'auto' });
  for (const part of answer.split(/(\[\d+\])/)) {
    const c = byNumber.get(Number(/^\[(\d+)\]$/.exec(part)?.[1]));
    p.append(c ? citeLink(c, part) : part);
  }
  return p;
}

/** Each source as a link and a hidden preview the link opens: the widget times how long a preview is seen. */
function sourceList(citations: readonly Citation[]): HTMLOListElement {
  const list = element('ol', { className: 'sources' });
  for (const c of citations) {
    const preview = element('blockquote', { hidden: true, textContent: c.snippet, dir: 'auto' });
    preview.dataset.previewFor = c.chunkId;
    list.append(element('li', { value: c.n }, citeLink(c, c.title), preview));
  }
  return list;
}

/** The answer inside `<rag-feedback>`, built whole before it joins the page so the widget sees every citation and preview. */
function feedbackElement(res: AskResponse, query: string, config: ClientConfig): RagFeedbackElement {
  const el = document.createElement('rag-feedback');
  const attrs: Record<string, string | null> = {
    'trace-id': res.traceId,
    'session-id': sessionId,
    query,
    endpoint: config.endpoint,
    'write-key': config.writeKey,
    'answered-at': String(Date.now()),
  };
  for (const [name, value] of Object.entries(attrs)) if (value) el.setAttribute(name, value);
  el.append(answerParagraph(res.answer, res.citations));
  if (res.citations.length) el.append(sourceList(res.citations));
  el.addEventListener('click', (e) => {
    const link = (e.target as Element).closest<HTMLElement>('a[data-chunk-id]');
    if (!link) return;
    e.preventDefault();
    const preview = [...el.querySelectorAll<HTMLElement>('[data-preview-for]')].find((p) => p.dataset.previewFor === link.dataset.chunkId);
    if (!preview) return;
    preview.hidden = !preview.hidden;
    for (const cite of el.querySelectorAll<HTMLElement>('a[data-chunk-id]')) {
      if (cite.dataset.chunkId === link.dataset.chunkId) cite.setAttribute('aria-expanded', String(!preview.hidden));
    }
  });
  return el;
}

/** Asks, and shows the reply in `turn`; a regenerate marks the reply it replaces, and on failure offers it again. */
async function reply(turn: HTMLElement, query: string, turnIndex: number, replaces?: { box: HTMLElement; el: RagFeedbackElement; again: HTMLButtonElement }) {
  searching++;
  announce();
  let res: AskResponse;
  let config: ClientConfig;
  try {
    // Not set up when the page loaded (the demo was restarting, say): this question tries again.
    config = await setUp();
    res = await ask({ sessionId, query, turnIndex, ...(replaces && { regenerateOf: replaces.el.traceId }) });
  } catch (err) {
    // A new chat was started meanwhile: the old one's answers are not said, nor counted.
    if (!turn.isConnected) return;
    // The demo no longer holds the answer to replace (it restarted, say): asking again is all that is left.
    const gone = replaces && err instanceof AskError && err.code === 'regenerate_unknown';
    const message = gone ? 'This answer can no longer be regenerated: ask the question again.' : `No answer: ${(err as Error).message}`;
    const followed = waiting(turn, replaces?.again);
    turn.append(element('p', { className: 'error', textContent: message }));
    if (followed) turn.scrollIntoView({ block: 'end' });
    searching--;
    announce(message);
    // A question with nothing left to retry goes back in the box, to be sent again as is, unless another is being typed there.
    if ((!replaces || gone) && !input.value.trim()) input.value = query;
    if (gone) {
      // Its button goes, the focus to the question box if it was on the button.
      if (replaces.again === document.activeElement) input.focus();
      replaces.again.remove();
    }
    // The answer it was to replace is still the turn's: it can be regenerated again.
    else if (replaces) Object.assign(replaces.again, { textContent: 'Regenerate' }).removeAttribute('aria-disabled');
    return;
  }
  if (!turn.isConnected) return;
  searching--;
  const followed = waiting(turn, replaces?.again);
  replaces?.box.classList.add('superseded');
  // What failed regenerates of the replaced answer said is over once its new answer comes.
  if (replaces) for (const error of turn.querySelectorAll(':scope > .error')) error.remove();
  // A regenerate asked from the keyboard: the focus moves from its button to the new answer, not to the page.
  const refocus = replaces?.again === document.activeElement;
  replaces?.again.remove();
  const el = feedbackElement(res, query, config);
  const box = element('div', { className: 'reply' }, el);
  turn.append(box);
  announce(`Answer: ${res.answer}`);
  // The answer is shown (and can take the focus) once the widget has rendered the slot it sits in.
  void Promise.resolve(el.updateComplete).then(() => {
    if (followed) turn.scrollIntoView({ block: 'end' });
    if (refocus) el.querySelector<HTMLElement>('.answer')?.focus();
  });
  if (!res.answered) return;
  // Which ranking the user got: after a promotion, the next answer names the new model.
  const ranking = res.rerankerVersion ? `Sources ranked by ${res.rerankerVersion}` : 'Sources ranked by BM25';
  box.append(element('p', { className: 'ranking', textContent: ranking }));
  const again = element('button', { type: 'button', className: 'regenerate', textContent: 'Regenerate' });
  let regenerated = false;
  again.addEventListener('click', () => {
    // Kept where it is (the focus with it) while the new answer is made; a second press does nothing.
    if (again.getAttribute('aria-disabled') === 'true') return;
    Object.assign(again, { textContent: 'Regenerating…' }).setAttribute('aria-disabled', 'true');
    // Asked again after a failure, it is still the one regenerate of this answer the loop counts.
    if (!regenerated) el.reportRegenerate();
    regenerated = true;
    void reply(turn, query, turnIndex, { box, el, again });
  });
  box.append(again);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const query = input.value.trim();
  if (!query) {
    // Said beside "Searching…" of a question still on its way, not instead of it.
    announce('Type a question first.', true);
    input.focus();
    return;
  }
  input.value = '';
  examples.hidden = true;
  const turn = element('section', { className: 'turn' }, element('div', { className: 'question', textContent: query, dir: 'auto' }));
  chat.append(turn);
  void reply(turn, query, nextTurn++);
  // The question and "Searching…" below it are seen at once, not only once the answer comes.
  status.scrollIntoView({ block: 'end' });
});

input.addEventListener('keydown', (e) => {
  // Enter that picks an input method's candidate (Chinese, Japanese, Korean) finishes the word, not the question.
  // Safari sends that Enter with isComposing already false, but with keyCode 229 ("being composed").
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
    e.preventDefault();
    form.requestSubmit();
  }
});

$('new-chat').addEventListener('click', () => {
  sessionId = crypto.randomUUID();
  nextTurn = 0;
  chat.replaceChildren();
  // Questions of the old chat still on their way are dropped with it.
  searching = 0;
  announce();
  examples.hidden = !examples.querySelector('li');
  input.focus();
});

/** The corpus's example questions on an empty chat: one click asks. */
function showExamples(questions: readonly string[]) {
  examples.querySelector('ul')!.replaceChildren(
    ...questions.map((q) => {
      const button = element('button', { type: 'button', className: 'example', textContent: q });
      button.addEventListener('click', () => {
        input.value = q;
        form.requestSubmit();
        // The examples are hidden with the button: the focus goes to the box for the next question, not to the page.
        input.focus();
      });
      return element('li', {}, button);
    }),
  );
  examples.hidden = !questions.length || chat.childElementCount > 0;
}

/** A notice beside the status line, which each question rewrites; none hides it. */
const showNotice = (text: string | null) => Object.assign($('notice'), { textContent: text ?? '', hidden: !text });

/** How often the page asks the demo whether feedback reaches the collector. */
const DELIVERY_POLL_MS = 2_000;

/**
 * Says in the notice while feedback is not reaching the collector (down, refusing the demo's key,
 * failing), as the demo's backend finds when it sends its traces, and takes it away once it is.
 */
async function watchDelivery() {
  for (;;) {
    const res = await fetch('/api/delivery').catch(() => undefined);
    // The demo not answering (restarting, say) knows nothing new: the notice stays as it is.
    const delivered = res?.ok ? ((await res.json().catch(() => undefined)) as Delivered | undefined) : undefined;
    if (delivered) showNotice(delivered.problem);
    await new Promise((wake) => setTimeout(wake, DELIVERY_POLL_MS));
  }
}

/** The page set up with the demo's settings; a failure is forgotten, so the next question tries again. */
let started: Promise<ClientConfig> | undefined;
const setUp = (): Promise<ClientConfig> =>
  (started ??= start().catch((err: unknown) => {
    started = undefined;
    throw err;
  }));

async function start(): Promise<ClientConfig> {
  const res = await fetch('/api/config');
  const config = res.ok ? ((await res.json().catch(() => undefined)) as ClientConfig | undefined) : undefined;
  if (!config) throw new Error(`the demo's settings did not load (HTTP ${res.status})`);
  $('corpus-name').textContent = config.corpus.name;
  input.placeholder = `Ask a question about ${config.corpus.name}…`;
  showExamples(config.corpus.examples);
  if (config.consoleUrl) Object.assign($<HTMLAnchorElement>('console-link'), { href: config.consoleUrl, hidden: false });
  const { RagFeedback } = (await import(WIDGET_MODULE)) as { RagFeedback: typeof RagFeedbackApi };
  if (config.endpoint && config.writeKey) {
    RagFeedback.configure({ endpoint: config.endpoint, writeKey: config.writeKey });
    void watchDelivery();
  }
  // For the whole visit, beside the status line, which each question rewrites.
  else showNotice('No collector configured: feedback is not sent.');
  document.body.dataset.ready = 'true';
  return config;
}

setUp().catch((err: unknown) => {
  // Unless a question is already on its way, which says so itself.
  if (!searching) status.textContent = `The page did not load: ${(err as Error).message}. Ask a question to try again.`;
});
