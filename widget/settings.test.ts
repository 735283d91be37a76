import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetConfigInput } from '../shared/schema/config.ts';
import {
  DEFAULT_PROMPT_CHOICES,
  DEFAULT_PROMPT_MAX_PER_DAY,
  DEFAULT_PROMPT_MAX_PER_SESSION,
  DEFAULT_WIDGET_THRESHOLDS,
} from '../shared/schema/config-defaults.ts';
import { MAX_TIMER_MS } from './defaults.ts';
import { configure, loadConfig, normalizeConfig, options, type RagFeedbackOptions } from './settings.ts';

/** A config as a proxy or a broken server might serve it: JSON, but not of the schema's types. */
const malformed = (config: unknown) => config as WidgetConfigInput;

describe('normalizeConfig', () => {
  it('fills the defaults the collector fills, and lets the page override the server', () => {
    const server = normalizeConfig({ rating: true, thresholds: { rephraseSimilarity: 0.7 }, prompts: [{ id: 'p', trigger: 'rephrase', text: 'Hi' }] });
    expect(server.prompts[0]).toMatchObject({ maxPerSession: 1, maxPerDay: 3, choices: [{ id: 'yes' }, { id: 'no' }] });
    const merged = normalizeConfig({ thresholds: { bounceWindowMs: 1 } }, server);
    expect(merged.rating).toBe(true);
    expect(merged.thresholds).toEqual({ ...DEFAULT_WIDGET_THRESHOLDS, rephraseSimilarity: 0.7, bounceWindowMs: 1 });
    expect(merged.prompts).toHaveLength(1);
  });

  it('keeps the defaults for what has the wrong type, and leaves out a prompt it could not show', () => {
    const config = normalizeConfig(
      malformed({
        rating: 'yes',
        thresholds: { largeCopyChars: '10', bounceWindowMs: 1, focusedDwellMs: null },
        prompts: [
          { id: 'odd', trigger: 'large_copy', text: 'Found it?', choices: 'yes', maxPerSession: '2' },
          { id: 7, trigger: 'large_copy', text: 'A number for an id' },
          { id: 'no-text', trigger: 'large_copy', text: null },
          null,
          { id: 'bad-label', trigger: 'rephrase', text: { en: 'Hi' }, choices: [{ id: 'y', label: 5 }], maxPerDay: 2 },
          { id: 'null-choice', trigger: 'rephrase', text: 'Hello', choices: [{ id: 'y', label: 'Yes' }, null] },
        ],
      }),
    );
    expect(config.rating).toBe(false);
    expect(config.thresholds).toEqual({ ...DEFAULT_WIDGET_THRESHOLDS, bounceWindowMs: 1 });
    expect(config.prompts.map((p) => p.id)).toEqual(['odd', 'bad-label', 'null-choice']);
    expect(config.prompts.map((p) => p.choices)).toEqual([DEFAULT_PROMPT_CHOICES, DEFAULT_PROMPT_CHOICES, DEFAULT_PROMPT_CHOICES]);
    expect(config.prompts.map((p) => [p.maxPerSession, p.maxPerDay])).toEqual([
      [DEFAULT_PROMPT_MAX_PER_SESSION, DEFAULT_PROMPT_MAX_PER_DAY],
      [DEFAULT_PROMPT_MAX_PER_SESSION, 2],
      [DEFAULT_PROMPT_MAX_PER_SESSION, DEFAULT_PROMPT_MAX_PER_DAY],
    ]);
  });

  it("keeps the server's config where the page's is malformed, and the defaults where there is no config at all", () => {
    const server = normalizeConfig({ rating: true, prompts: [{ id: 'p', trigger: 'rephrase', text: 'Hi' }] });
    expect(normalizeConfig(malformed({ prompts: 'none', rating: 1, thresholds: 'fast' }), server)).toEqual(server);
    for (const nothing of [null, 'config', 42]) expect(normalizeConfig(malformed(nothing))).toEqual(normalizeConfig());
  });

  it('leaves out a prompt with no text to show, and keeps the default answers for a choice without a label', () => {
    const config = normalizeConfig(
      malformed({
        prompts: [
          { id: 'empty', trigger: 'rephrase', text: {} },
          { id: 'number', trigger: 'rephrase', text: { en: 5 } },
          { id: 'blank', trigger: 'rephrase', text: '' },
          { id: 'some', trigger: 'rephrase', text: { en: 5, 'zh-CN': '遇到困难了吗？' }, choices: [{ id: 'y', label: { en: 5 } }] },
        ],
      }),
    );
    expect(config.prompts.map((p) => p.id)).toEqual(['some']);
    expect(config.prompts[0]!.choices).toEqual(DEFAULT_PROMPT_CHOICES);
  });

  it('keeps the default of a threshold or cap that is not a finite number, or is negative', () => {
    const config = normalizeConfig(
      malformed({
        thresholds: { largeCopyChars: Number.NaN, bounceWindowMs: -1, focusedDwellMs: Number.POSITIVE_INFINITY, repeatedThumbsDown: 0 },
        prompts: [{ id: 'p', trigger: 'large_copy', text: 'Found it?', maxPerSession: Number.NaN, maxPerDay: -2 }],
      }),
    );
    expect(config.thresholds).toEqual({ ...DEFAULT_WIDGET_THRESHOLDS, repeatedThumbsDown: 0 });
    expect([config.prompts[0]!.maxPerSession, config.prompts[0]!.maxPerDay]).toEqual([DEFAULT_PROMPT_MAX_PER_SESSION, DEFAULT_PROMPT_MAX_PER_DAY]);
  });
});

describe('configure', () => {
  it('takes nothing given in plain JavaScript without an error, and keeps the options set before', () => {
    configure({ outboxName: 'kept' });
    for (const nothing of [null, undefined]) expect(() => configure(nothing as unknown as RagFeedbackOptions)).not.toThrow();
    expect(options.outboxName).toBe('kept');
  });
});

describe('loadConfig', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads the config with no timeout where `transport.timeoutMs` is longer than a browser timer holds', async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response('{"rating": true}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    try {
      for (const [i, timeoutMs] of [1e300, 2 ** 32, MAX_TIMER_MS].entries()) {
        configure({ transport: { timeoutMs } });
        expect((await loadConfig(`https://collector-long-timeout-${i}.example`, 'rfw_k')).rating).toBe(true);
        expect(fetch.mock.lastCall![1].signal).toBeUndefined();
      }
      configure({ transport: { timeoutMs: MAX_TIMER_MS - 1 } });
      await loadConfig('https://collector-long-timeout.example', 'rfw_k');
      expect(fetch.mock.lastCall![1].signal).toBeInstanceOf(AbortSignal);
    } finally {
      configure({ transport: undefined });
    }
  });

  it.each(['null', '"yes"', '[]'])('keeps the defaults when the collector (or a proxy before it) answers the config with %s', async (body) => {
    vi.stubGlobal('fetch', async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }));
    const endpoint = `https://collector-${body.length}-${body.charCodeAt(0)}.example`;
    expect(await loadConfig(endpoint, 'rfw_k')).toEqual(normalizeConfig(options.config));
  });

  const answers: [string, () => Promise<Response>][] = [
    ['401', async () => new Response('{}', { status: 401 })],
    ['403', async () => new Response('{}', { status: 403 })],
    ['404', async () => new Response('{}', { status: 404 })],
    ['500', async () => new Response('{}', { status: 500 })],
    ['503', async () => new Response('{}', { status: 503 })],
    ['429', async () => new Response('{}', { status: 429 })],
    ['a body that is not JSON', async () => new Response('<html>', { status: 200 })],
    ['no answer (offline)', () => Promise.reject(new TypeError('Failed to fetch'))],
  ];
  it.each(answers)('after %s, asks for the config again (and again once the connection is back) only if that may pass', async (what, answer) => {
    const fetch = vi.fn(answer);
    const addEventListener = vi.fn();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('addEventListener', addEventListener);
    const endpoint = `https://collector-${encodeURIComponent(what)}.example`;
    for (let i = 0; i < 2; i++) expect(await loadConfig(endpoint, 'rfw_k')).toEqual(normalizeConfig(options.config));
    const passes = !['401', '403', '404'].includes(what);
    expect(fetch).toHaveBeenCalledTimes(passes ? 2 : 1);
    expect(addEventListener.mock.calls.map(([type]) => type)).toEqual(passes ? ['online', 'online'] : []);
  });
});
