import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { REPEAT_WINDOW_MS } from '../defaults.ts';
import { setDebug } from '../guard.ts';
import { configure, normalizeConfig } from '../settings.ts';
import { FeedbackController, type FeedbackHost } from './feedback-controller.ts';

/** What the page's pipeline was asked to record. */
const recorded = vi.hoisted(() => [] as { traceId: string; type: string; detail: unknown }[]);
/** While set, events are made later, as before the recorder's code has loaded. */
const deferred = vi.hoisted(() => ({ queue: undefined as (() => void)[] | undefined }));

vi.mock('../pipeline/index.ts', () => ({
  pipeline: () => ({
    record(ctx: { traceId: string }, type: string, detail: unknown, then: (event: FeedbackEvent) => void) {
      recorded.push({ traceId: ctx.traceId, type, detail });
      const event = { eventId: `e${recorded.length}`, traceId: ctx.traceId, signalType: type, detail } as FeedbackEvent;
      if (deferred.queue) deferred.queue.push(() => then(event));
      else then(event);
      return true;
    },
    onHide: () => () => undefined,
  }),
}));
// Web vitals need a browser: the e2e suite covers them.
vi.mock('../signals/vitals.ts', () => ({ reportVitalsTo: () => undefined }));

/** sessionStorage and localStorage as a browser tab has them. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

/** The element as the controller sees it: attributes, citations, events and update requests. */
class FakeElement extends EventTarget {
  traceId = 't-1';
  sessionId = 's-1';
  endpoint = 'https://collector.example';
  writeKey = 'rfw_test';
  locale = 'en';
  isConnected = true;
  updates = 0;
  citationIds: string[] = [];
  readonly events: { type: string; detail: any }[] = [];
  readonly updateComplete = Promise.resolve(true);

  addController(): void {}
  removeController(): void {}
  requestUpdate(): void {
    this.updates++;
  }
  querySelectorAll() {
    return this.citationIds.map((id) => ({ dataset: { chunkId: id }, getAttribute: () => null, textContent: ` [${id}] Source ` }));
  }
  override dispatchEvent(event: Event): boolean {
    this.events.push({ type: event.type, detail: (event as CustomEvent).detail });
    return super.dispatchEvent(event);
  }
}

let host: FakeElement;
let feedback: FeedbackController;
const types = () => recorded.map((r) => r.type);
const emitted = (type: string) => host.events.filter((e) => e.type === type).map((e) => e.detail);
const later = () => vi.advanceTimersByTime(REPEAT_WINDOW_MS + 1);

configure({ loadConfig: false }); // the page's own config only: no fetch

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('localStorage', memoryStorage());
  recorded.length = 0;
  deferred.queue = undefined;
  host = new FakeElement();
  feedback = new FeedbackController(host as unknown as FeedbackHost);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('votes', () => {
  it('records a vote, flips it, and takes it back with the same thumb', () => {
    feedback.castVote('up');
    expect([feedback.vote, feedback.announcement]).toEqual(['up', 'Marked as helpful']);
    later();
    feedback.castVote('down');
    expect(feedback.vote).toBe('down');
    later();
    feedback.castVote('down');
    expect([feedback.vote, feedback.announcement]).toEqual([null, 'Feedback removed']);
    expect(types()).toEqual(['thumbs_up', 'thumbs_down', 'vote_cleared']);
    expect(emitted('rf-vote')).toEqual([
      { traceId: 't-1', vote: 'up' },
      { traceId: 't-1', vote: 'down' },
      { traceId: 't-1', vote: null },
    ]);
    expect(emitted('rf-signal').map((d) => d.event.signalType)).toEqual(types());
    expect(host.updates).toBeGreaterThan(0);
  });

  it('counts a double click once', () => {
    feedback.castVote('up');
    vi.advanceTimersByTime(REPEAT_WINDOW_MS - 1);
    feedback.castVote('up');
    expect(feedback.vote).toBe('up');
    expect(types()).toEqual(['thumbs_up']);
  });

  it('asks what went wrong after a thumbs-down, and closes the question when the vote changes', () => {
    feedback.castVote('down');
    expect(feedback.panel.kind).toBe('reasons');
    later();
    feedback.castVote('up');
    expect(feedback.panel.kind).toBe('closed');
  });

  it('remembers the vote per trace for a re-rendered answer', () => {
    feedback.castVote('down');
    const again = new FeedbackController(host as unknown as FeedbackHost);
    again.hostConnected();
    expect(again.vote).toBe('down');
  });

  it('offers the "having trouble?" prompt after repeated thumbs-down in a session', () => {
    feedback.config = normalizeConfig({ prompts: [{ id: 'trouble', trigger: 'repeated_thumbs_down', text: 'Having trouble?' }] });
    feedback.castVote('down');
    expect(feedback.prompt).toBeNull();
    host.traceId = 't-2';
    feedback.hostTraceChanged();
    feedback.castVote('down');
    expect(feedback.prompt?.id).toBe('trouble');
    expect(emitted('rf-prompt-show')).toEqual([{ traceId: 't-2', promptId: 'trouble', trigger: 'repeated_thumbs_down' }]);
  });

  it('counts a change of mind on one answer (down, up, down again) as one answer voted down', () => {
    feedback.config = normalizeConfig({ prompts: [{ id: 'trouble', trigger: 'repeated_thumbs_down', text: 'Having trouble?' }] });
    feedback.castVote('down');
    later();
    feedback.castVote('up');
    later();
    feedback.castVote('down');
    expect(types()).toEqual(['thumbs_down', 'thumbs_up', 'thumbs_down']);
    expect(feedback.prompt).toBeNull();
    host.traceId = 't-2';
    feedback.hostTraceChanged();
    feedback.castVote('down');
    expect(feedback.prompt?.id).toBe('trouble');
  });
});

describe('ratings', () => {
  it('records each new rating, and asks what went wrong at two stars or fewer', () => {
    feedback.rate(4);
    feedback.rate(4);
    expect(feedback.panel.kind).toBe('closed');
    feedback.rate(2);
    expect(feedback.panel.kind).toBe('reasons');
    expect(recorded.map((r) => r.detail)).toEqual([{ stars: 4 }, { stars: 2 }]);
    expect(emitted('rf-rate')).toEqual([
      { traceId: 't-1', stars: 4 },
      { traceId: 't-1', stars: 2 },
    ]);
  });

  it('closes the question of what went wrong when the rating is raised, as a thumbs-up does', () => {
    feedback.rate(1);
    expect(feedback.panel.kind).toBe('reasons');
    feedback.rate(5);
    expect(feedback.panel.kind).toBe('closed');
  });
});

describe('the popover', () => {
  it('asks for text before sending "something else"', () => {
    feedback.chooseReason('other');
    expect(feedback.panel.kind).toBe('other');
    expect(recorded).toEqual([]);
    feedback.chooseReason('other', 'The link is dead');
    expect(feedback.panel.kind).toBe('thanks');
    expect(recorded).toEqual([{ traceId: 't-1', type: 'attribution', detail: { reason: 'other', text: 'The link is dead' } }]);
    expect(emitted('rf-submit').map((d) => [d.kind, d.event.signalType])).toEqual([['attribution', 'attribution']]);
  });

  it('lists the citations after "wrong source", and flags each once', () => {
    host.citationIds = ['c1', 'c2'];
    feedback.chooseReason('wrong_source');
    expect(feedback.panel.kind).toBe('sources');
    expect(feedback.citations()).toEqual([
      { chunkId: 'c1', label: '[c1] Source' },
      { chunkId: 'c2', label: '[c2] Source' },
    ]);
    feedback.flagWrongSource('c2');
    feedback.flagWrongSource('c2');
    expect(recorded.map((r) => [r.type, r.detail])).toEqual([
      ['attribution', { reason: 'wrong_source' }],
      ['wrong_source', { chunkId: 'c2' }],
    ]);
    expect(feedback.state).toEqual({ traceId: 't-1', vote: null, rating: null, flagged: ['c2'], corrected: false, panel: 'sources' });
  });

  it('thanks at once for "wrong source" when the answer cites nothing', () => {
    feedback.chooseReason('wrong_source');
    expect(feedback.panel.kind).toBe('thanks');
    expect(types()).toEqual(['attribution']);
  });

  it('sends a correction trimmed, without an empty source, and never an empty one', () => {
    feedback.submitCorrection('   ');
    expect(recorded).toEqual([]);
    expect(feedback.state.corrected).toBe(false);
    feedback.submitCorrection('  30 days  ', '  ');
    expect(feedback.state.corrected).toBe(true);
    feedback.submitCorrection('30 days', ' Policy v4 ');
    expect(recorded.map((r) => r.detail)).toEqual([{ text: '30 days' }, { text: '30 days', source: 'Policy v4' }]);
    expect(feedback.panel.kind).toBe('thanks');
  });

  it('names in debug output a correction whose text is not text, and records nothing for it', () => {
    const logged = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    setDebug(true);
    try {
      feedback.submitCorrection({ text: 'an object' } as unknown as string);
      expect(recorded).toEqual([]);
      expect(logged).toHaveBeenCalledWith('[rag-feedback]', 'ignored', { text: 'an object' });
    } finally {
      setDebug(false);
      logged.mockRestore();
    }
  });

  it('shows a new step object each time, so a step shown again takes focus again', () => {
    feedback.rate(1);
    const first = feedback.panel;
    feedback.rate(2);
    expect(feedback.panel).not.toBe(first);
    feedback.closePanel();
    expect(feedback.state.panel).toBe('closed');
  });
});

describe('prompts and host reports', () => {
  beforeEach(() => {
    feedback.config = normalizeConfig({ prompts: [{ id: 'copy', trigger: 'large_copy', text: 'Found what you needed?' }] });
  });

  it('shows a prompt on a large copy, one at a time, and records its answer', () => {
    feedback.reportCopy(10);
    expect(feedback.prompt).toBeNull();
    feedback.reportCopy(500, 'c1');
    feedback.reportCopy(600);
    expect(types()).toEqual(['copy_answer', 'copy_source', 'prompt_shown', 'copy_answer']);
    feedback.answerPrompt('yes');
    feedback.answerPrompt('no');
    expect(feedback.prompt).toBeNull();
    expect(recorded.at(-1)).toEqual({ traceId: 't-1', type: 'prompt_answered', detail: { promptId: 'copy', answer: 'yes' } });
    expect(emitted('rf-prompt-answer')).toEqual([{ traceId: 't-1', promptId: 'copy', answer: 'yes' }]);
  });

  it('ignores arguments from plain JavaScript that no event could carry, recording the rest', () => {
    // Each of these would be an event the collector refuses.
    feedback.castVote('sideways' as never);
    feedback.rate(2.5);
    feedback.chooseReason('bogus' as never);
    feedback.chooseReason('incomplete', 5 as never);
    feedback.flagWrongSource('');
    feedback.flagWrongSource(7 as never);
    feedback.reportCopy(-1);
    feedback.reportCopy(1.5);
    feedback.reportCopy(Number.NaN);
    feedback.reportCopy('500' as never);
    feedback.reportCopy(500, 7 as never);
    expect(recorded).toEqual([]);
    expect(feedback.state).toEqual({ traceId: 't-1', vote: null, rating: null, flagged: [], corrected: false, panel: 'closed' });
    feedback.reportCopy(500);
    // None of the prompt's choices.
    feedback.answerPrompt('bogus');
    feedback.answerPrompt(1 as never);
    expect(feedback.prompt?.id).toBe('copy');
    feedback.answerPrompt('dismissed');
    expect(recorded.map((r) => [r.type, r.detail])).toEqual([
      ['copy_answer', { chars: 500 }],
      ['prompt_shown', { promptId: 'copy', trigger: 'large_copy' }],
      ['prompt_answered', { promptId: 'copy', answer: 'dismissed' }],
    ]);
  });

  it('respects the prompt caps', () => {
    feedback.reportCopy(500);
    feedback.answerPrompt('dismissed');
    feedback.reportCopy(500);
    expect(feedback.prompt).toBeNull(); // one per session by default
  });

  it("counts a double click on the page's regenerate button once: its gap, a few ms longer, makes it no other event", () => {
    feedback.hostConnected();
    vi.advanceTimersByTime(4_000);
    feedback.reportRegenerate();
    vi.advanceTimersByTime(120);
    feedback.reportRegenerate();
    expect(types().filter((t) => t === 'regenerate')).toHaveLength(1);
    later();
    feedback.reportRegenerate();
    expect(types().filter((t) => t === 'regenerate')).toHaveLength(2);
  });

  it('times a regenerate from when the answer was shown', () => {
    feedback.hostConnected();
    vi.advanceTimersByTime(4_000);
    feedback.reportRegenerate();
    expect(recorded.find((r) => r.type === 'regenerate')?.detail).toEqual({ gapMs: 4_000 });
  });
});

describe('signals and traces', () => {
  it('tells interactions from passive signals, and records about another trace when asked', () => {
    feedback.recordSignal('answer_dwell', { ms: 2_000 }, { interaction: false });
    feedback.recordSignal('citation_dwell', { chunkId: 'c1', ms: 500, mode: 'preview' }, { traceId: 't-0' });
    expect(feedback.interacted).toBe(false);
    expect(recorded.map((r) => r.traceId)).toEqual(['t-1', 't-0']);
    feedback.recordSignal('citation_click', { chunkId: 'c1' });
    expect(feedback.interacted).toBe(true);
  });

  it('records nothing without a trace id', () => {
    host.traceId = '';
    feedback.castVote('up');
    expect(recorded).toEqual([]);
  });

  it('starts over when the element is pointed at another answer', () => {
    host.citationIds = ['c1'];
    feedback.castVote('down');
    feedback.chooseReason('wrong_source');
    feedback.flagWrongSource('c1');
    feedback.submitCorrection('30 days');
    host.traceId = 't-2';
    feedback.hostTraceChanged();
    expect(feedback.state).toEqual({ traceId: 't-2', vote: null, rating: null, flagged: [], corrected: false, panel: 'closed' });
    expect([feedback.announcement, feedback.interacted]).toEqual(['', false]);
    feedback.castVote('up'); // no double-click window carried over from the other answer
    expect(recorded.at(-1)).toEqual({ traceId: 't-2', type: 'thumbs_up', detail: {} });
  });

  it('names the trace a submission was about in rf-submit, though the element shows another answer by the time it is made', () => {
    deferred.queue = [];
    feedback.castVote('down');
    feedback.chooseReason('incomplete');
    host.traceId = 't-2';
    feedback.hostTraceChanged();
    for (const made of deferred.queue) made();
    expect(emitted('rf-submit').map((d) => [d.traceId, d.event.traceId])).toEqual([['t-1', 't-1']]);
  });
});
