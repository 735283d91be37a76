/** The admin calls the driver makes: settings, tonight's run at a simulated moment, models, trace arrival. */
import type { NightlySummary, StageReport } from '../../shared/admin-api/nightly.ts';
import type { RerankerModel } from '../../shared/reranker/model.ts';
import { collectorFetch } from './http.ts';

export interface Admin {
  endpoint: string;
  adminKey: string;
}

export async function adminCall<T>(a: Admin, method: string, path: string, json?: unknown, timeoutMs?: number): Promise<T> {
  const res = await collectorFetch(
    `${a.endpoint}${path}`,
    {
      method,
      headers: { authorization: `Bearer ${a.adminKey}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    },
    timeoutMs,
  );
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 500)}`);
  return JSON.parse(res.text) as T;
}

/** One invocation works for its budget (20 s) and finishes the slice it is in. */
const NIGHTLY_TIMEOUT_MS = 120_000;

/** Runs the night of `at` to its end (the endpoint stops after its time budget; calling again continues). */
export async function runNight(a: Admin, at: number): Promise<StageReport[]> {
  for (let i = 0; i < 200; i++) {
    const s = await adminCall<NightlySummary>(a, 'POST', `/v1/admin/nightly?at=${at}&simulate=true`, undefined, NIGHTLY_TIMEOUT_MS);
    if (s.done) return s.runs[0]?.stages ?? [];
  }
  throw new Error('the nightly run did not finish in 200 calls');
}

export const stageCount = (stages: readonly StageReport[], stage: string, count: string): number => stages.find((s) => s.name === stage)?.counts[count] ?? 0;

export interface ModelRow {
  version: string;
  createdAt: number;
  confirmed: number;
  decision: 'promoted' | 'rejected';
  reasons: string[];
  current: boolean;
  evaluation: {
    retrieval?: { overall: { ndcg5: number; queries: number } };
    current?: { overall: { ndcg5: number } };
    candidate?: { overall: { ndcg5: number } };
  };
}

/** The export streams every confirmed example with its candidates' texts: megabytes after some weeks. */
const EXPORT_TIMEOUT_MS = 120_000;

/** What the night of `at` would train on (`GET /v1/admin/training-data`), for studying the learner away from the loop. */
export const trainingData = (a: Admin, at: number) => adminCall<unknown>(a, 'GET', `/v1/admin/training-data?at=${at}`, undefined, EXPORT_TIMEOUT_MS);

export const listModels = (a: Admin) => adminCall<{ current: string | null; models: ModelRow[] }>(a, 'GET', '/v1/admin/models');
export const modelArtifact = (a: Admin, version: string) => adminCall<RerankerModel>(a, 'GET', `/v1/admin/models/${encodeURIComponent(version)}`);

/** Waits until the collector has a trace (the demo's client sends them in the background). */
export async function traceStored(a: Admin, traceId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await collectorFetch(`${a.endpoint}/v1/traces/${traceId}`, { headers: { authorization: `Bearer ${a.adminKey}` } });
    if (res.ok && (JSON.parse(res.text) as { trace: unknown }).trace) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`trace ${traceId} never reached the collector`);
}

/**
 * How many of `traceIds` the collector holds a `signalType` event on, waiting up to `timeoutMs`
 * for the ones a backend reports in the background (its events are batched apart from its traces).
 */
export async function tracesWithSignal(a: Admin, traceIds: readonly string[], signalType: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...traceIds];
  for (;;) {
    const still: string[] = [];
    // One at a time: the dev server leaves some of a burst of requests unanswered.
    for (const id of waiting) {
      const res = await collectorFetch(`${a.endpoint}/v1/traces/${id}`, { headers: { authorization: `Bearer ${a.adminKey}` } });
      const events = res.ok ? (JSON.parse(res.text) as { events: { signalType: string }[] }).events : [];
      if (!events.some((e) => e.signalType === signalType)) still.push(id);
    }
    waiting = still;
    if (waiting.length === 0 || Date.now() >= deadline) return traceIds.length - waiting.length;
    await new Promise((r) => setTimeout(r, 500));
  }
}
