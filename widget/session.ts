import { toHex } from '../shared/hex.ts';
import { SEEN_TRACES_KEPT } from './defaults.ts';
import { readJson, writeJson } from './storage.ts';

/** A key of its own per id: `rf:<name>:<id>…`. */
const keyOf =
  (name: string) =>
  (...ids: string[]) =>
    ['rf', name, ...ids].join(':');

/** The widget's keys in sessionStorage (per tab, across reloads) and, for prompt days, localStorage. */
export const KEY = {
  session: 'rf:session',
  /** By session id and prompt id. */
  promptInSession: keyOf('prompt'),
  promptDay: keyOf('prompt-day'),
  vote: keyOf('vote'),
  downs: keyOf('downs'),
  lastQuery: keyOf('last'),
  seen: keyOf('seen'),
  /** Events a page recorded before its background code came, kept for the tab's next page. */
  waiting: 'rf:waiting',
};

/** 128 random bits as hex (crypto.randomUUID exists only on https pages). */
const randomHex = () => toHex(crypto.getRandomValues(new Uint8Array(16)));

let tabSession: string | undefined;

/** A session id per tab, for hosts that do not pass one (read once: every event asks for it). */
export function tabSessionId(): string {
  if (tabSession) return tabSession;
  tabSession = readJson<string>(KEY.session);
  if (!tabSession) writeJson(KEY.session, (tabSession = randomHex()));
  return tabSession;
}

export type Vote = 'up' | 'down' | null;

/** One vote state per trace, so a re-rendered answer shows (and flips) the same vote. */
export const storedVote = (traceId: string): Vote => readJson<Vote>(KEY.vote(traceId)) ?? null;
export const storeVote = (traceId: string, vote: Vote) => writeJson(KEY.vote(traceId), vote);

/**
 * Adds a trace id to the list kept under `key` (its newest SEEN_TRACES_KEPT), and returns the
 * list as it was: whether the id was in it says whether the trace was seen before.
 */
export function noteTrace(key: string, traceId: string): string[] {
  const stored = readJson<string[]>(key);
  const before = Array.isArray(stored) ? stored : [];
  if (!before.includes(traceId)) writeJson(key, [...before.slice(1 - SEEN_TRACES_KEPT), traceId]);
  return before;
}

/**
 * Counts the answers of this session voted down, with `traceId`, for the "repeated thumbs-down"
 * prompt: a change of mind on one answer (down, up, down again) is one of them, not two.
 */
export function countThumbsDown(sessionId: string, traceId: string): number {
  const before = noteTrace(KEY.downs(sessionId), traceId);
  return before.includes(traceId) ? before.length : before.length + 1;
}
