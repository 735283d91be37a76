import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { uuidv7 } from '../../shared/ids.ts';
import type { FeedbackEventInput } from '../../shared/schema/event.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import { provisionProject } from '../auth/provision.ts';
import type { Env } from '../env.ts';
import worker from '../index.ts';

export const ORIGIN = 'https://app.example.com';
export const FOREIGN_ORIGIN = 'https://evil.example.net';

let projects = 0;

/** A fresh project with its three keys, so tests never share rows or rate-limit buckets. */
export async function newProject(origins: string[] = [ORIGIN]) {
  const id = `p${Date.now().toString(36)}${(projects++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const p = await provisionProject({ id, name: `test ${id}`, origins });
  await env.DB.batch(p.statements.map((s) => env.DB.prepare(s)));
  return p;
}

/**
 * A client address of its own for each call unless a test names one (Cloudflare sets this header):
 * the next of 198.18.0.0/15's 131,072, from a random start. Drawn at random, two calls of one test
 * now and then shared one, and the flooding rule counted them as one source.
 */
let lastIp = Math.floor(Math.random() * 131_072);
const newIp = () => {
  lastIp = (lastIp + 1) % 131_072;
  return `198.${18 + (lastIp >> 16)}.${(lastIp >> 8) & 255}.${lastIp & 255}`;
};

/**
 * Calls the Worker as a client would, through its real fetch handler. In this isolate, not through
 * the test pool's `exports.default`, whose every call got slower than the one before (16 ms at
 * first, 600 ms after a thousand calls), which held the longer tests to the minute.
 */
export async function call(path: string, init: RequestInit & { json?: unknown; bindings?: Partial<Env> } = {}): Promise<Response> {
  const { json, bindings, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (!headers.has('cf-connecting-ip')) headers.set('cf-connecting-ip', newIp());
  if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const ctx = createExecutionContext();
  const request = new Request(`http://collector.test${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  // `bindings` replace some of the Worker's for this call (a var, a queue that records or fails).
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], bindings ? { ...env, ...bindings } : env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A call to the admin API with the project's admin key: its status and its JSON body. */
export async function adminCall<T = Record<string, unknown>>(p: { keys: { admin: string } }, path: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await call(`/v1/admin${path}`, { ...init, headers: bearer(p.keys.admin) });
  return { status: res.status, body: (await res.json()) as T };
}

let clock = Date.UTC(2026, 10, 1);

export function trace(overrides: Partial<TraceInput> = {}): TraceInput {
  return {
    traceId: uuidv7(),
    query: 'What is the refund window for opened items?',
    retrievedChunks: [
      { chunkId: 'c1', sourceDocId: 'refunds.md', sourceDocVersion: 'v3', score: 0.82, rank: 1, text: 'Opened items can be returned within 14 days.' },
      { chunkId: 'c2', sourceDocId: 'shipping.md', score: 0.71, rank: 2, text: 'Shipping takes 3-5 days.' },
    ],
    rerankedChunks: [
      { chunkId: 'c1', sourceDocId: 'refunds.md', sourceDocVersion: 'v3', score: 0.93, rank: 1, text: 'Opened items can be returned within 14 days.' },
    ],
    answer: 'Opened items can be returned within 14 days.',
    model: 'gpt-test',
    sessionId: 's1',
    createdAt: (clock += 1000),
    ...overrides,
  };
}

export function event(overrides: Partial<FeedbackEventInput> & Pick<FeedbackEventInput, 'traceId'>): FeedbackEventInput {
  return {
    eventId: uuidv7(),
    sessionId: 's1',
    signalType: 'thumbs_up',
    clientTs: (clock += 1000),
    widgetVersion: '0.1.0',
    ...overrides,
  } as FeedbackEventInput;
}

const DATA_TABLES = {
  traces: 'trace_id',
  trace_chunks: 'trace_id, stage, rank',
  feedback_events: 'event_id',
  widget_configs: 'project_id',
  client_drop_reports: 'event_id',
};

/** Every row of every data table for one project, in a stable order: "nothing was written" in one comparison. */
export async function projectRows(projectId: string) {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const [table, order] of Object.entries(DATA_TABLES)) {
    out[table] = (await env.DB.prepare(`select * from ${table} where project_id = ? order by ${order}`).bind(projectId).all()).results;
  }
  return out;
}

/** Row counts of every data table for one project. */
export async function counts(projectId: string) {
  const out: Record<string, number> = {};
  for (const t of Object.keys(DATA_TABLES)) {
    const row = await env.DB.prepare(`select count(*) as n from ${t} where project_id = ?`).bind(projectId).first<{ n: number }>();
    out[t] = row!.n;
  }
  return out;
}

/** Events grouped by session (the fixture's default session when none is given), in order: what one browser sends. */
export function bySession<E extends { sessionId?: string }>(events: readonly E[]): E[][] {
  const groups = new Map<string, E[]>();
  for (const e of events) {
    const key = e.sessionId ?? 's1';
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()];
}

/**
 * Stores traces through the server API, then each session's events from that session's browser
 * (its own call, so its own address): what a day of real traffic looks like to the loop.
 */
export async function sendTraffic(p: { keys: { server: string; write: string } }, traces: TraceInput[], events: Parameters<typeof event>[0][] = []) {
  if (traces.length) {
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces });
    if (res.status !== 200) throw new Error(`POST /v1/traces answered ${res.status}: ${await res.text()}`);
  }
  for (const batch of bySession(events)) {
    const res = await call('/v1/events', {
      method: 'POST',
      headers: { ...bearer(p.keys.write), origin: ORIGIN },
      json: { events: batch.map((e) => event(e)) },
    });
    if (res.status !== 200) throw new Error(`POST /v1/events answered ${res.status}: ${await res.text()}`);
  }
}

/**
 * The moment to run the night `days` after a first run at `Date.now() + 1_000`: a second ahead of
 * the clock too, so the two never fall in one UTC night, not even when the first ran in the last
 * second before midnight and so on the next night.
 */
export const nightsAfterNow = (days: number) => Date.now() + 1_000 + days * DAY_MS;

/**
 * Moves the arrival of answers, and of the events on them, to `at`, as if they had come then; of the
 * events alone when `tables` says so (an answer of an earlier night voted on later).
 */
export async function arrivedAt(
  projectId: string,
  traceIds: readonly string[],
  at: number,
  tables: readonly ('traces' | 'feedback_events')[] = ['traces', 'feedback_events'],
) {
  for (const id of traceIds)
    for (const table of tables) await env.DB.prepare(`update ${table} set received_at = ? where project_id = ? and trace_id = ?`).bind(at, projectId, id).run();
}

/** Where the project's last night's window ended: what arrives after it is the next night's. */
export const lastWindowEnd = async (projectId: string): Promise<number> =>
  (await env.DB.prepare('select max(window_to) as at from loop_runs where project_id = ?').bind(projectId).first<{ at: number }>())!.at;

/** The health snapshot's metrics the night at `night` stored (its UTC day's). */
export const healthMetricsOf = async (projectId: string, night: number) =>
  JSON.parse(
    (await env.DB.prepare('select metrics from health_snapshots where project_id = ? and day = ?').bind(projectId, utcDay(night)).first<{ metrics: string }>())!
      .metrics,
  ) as Record<string, number | string | boolean | null>;

/** How many review items an answer is evidence for: mined, or not (any more). */
export const reviewRowsOf = async (projectId: string, traceId: string): Promise<number> =>
  (await env.DB.prepare('select count(*) as n from review_item_traces where project_id = ? and trace_id = ?').bind(projectId, traceId).first<{ n: number }>())!
    .n;

/** Every row of the project, in every table that has a project id, that names one of the needles. */
export async function rowsNaming(projectId: string, needles: readonly string[]): Promise<string[]> {
  // Erasure's tombstones hold the erased trace ids alone, so nothing about them is stored again (storage/erasure-tombstones.test.ts).
  const { results: tables } = await env.DB.prepare(
    `select name from sqlite_master where type = 'table' and sql like '%\`project_id\`%' and name <> 'erased_traces'`,
  ).all<{
    name: string;
  }>();
  if (tables.length < 10) throw new Error(`only ${tables.length} tables have a project id`);
  const found: string[] = [];
  for (const { name } of tables) {
    const { results } = await env.DB.prepare(`select * from ${name} where project_id = ?`).bind(projectId).all();
    for (const row of results) {
      const text = JSON.stringify(row);
      if (needles.some((n) => text.includes(n))) found.push(`${name}: ${text}`);
    }
  }
  return found;
}

/** SQLite's plan for a statement, one line per step, as the migrated schema gives it (no statistics). */
export const planOf = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(`explain query plan ${sql}`)
      .bind(...params)
      .all<{ detail: string }>()
  ).results.map((r) => r.detail);
