import { toHex } from '../shared/hex.ts';
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

/** Counts this session's thumbs-down, for the "repeated thumbs-down" prompt. */
export function countThumbsDown(sessionId: string): number {
  const n = (readJson<number>(KEY.downs(sessionId)) ?? 0) + 1;
  writeJson(KEY.downs(sessionId), n);
  return n;
}
