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
 * Counts the answers of this session voted down, with `traceId`, for the "repeated thumbs-down"
 * prompt: a change of mind on one answer (down, up, down again) is one of them, not two.
 */
export function countThumbsDown(sessionId: string, traceId: string): number {
  const stored = readJson<string[]>(KEY.downs(sessionId));
  const downs = new Set(Array.isArray(stored) ? stored : []).add(traceId);
  writeJson(KEY.downs(sessionId), [...downs].slice(-SEEN_TRACES_KEPT));
  return downs.size;
}
