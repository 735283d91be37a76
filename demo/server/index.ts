/**
 * `startDemo`: the demo chat app, a team's RAG product as it would use rag-feedback. It answers
 * from its corpus, logs every trace to the collector with the server key, and wraps every answer
 * in `<rag-feedback>` with the write key, so feedback given on the page reaches the same traces.
 */
import { createTraceClient } from '../../client/index.ts';
import { joinUrl } from '../../shared/url.ts';
import { loadCorpus } from '../corpus/index.ts';
import { createAnswerer } from './answerer.ts';
import { createDemoApp } from './app.ts';
import { loadPageAssets } from './assets.ts';
import { watchDelivery } from './delivery.ts';
import { type Generator, generatorFromEnv } from './generate.ts';
import { serve } from './node-server.ts';
import { promotedReranker } from './promoted-reranker.ts';
import { mutingRepeats } from './repeats-muted.ts';
import type { Reranker } from './rerank.ts';

export type { Generator } from './generate.ts';
export type { Reranker, Scored } from './rerank.ts';

/** Where the page is served by default: an origin the dev project allows. */
export const DEMO_PORT = 5173;
/** A collector that hangs is retried for over a minute: stopping the demo waits this long for it. */
const CLOSE_TIMEOUT_MS = 10_000;

export interface DemoOptions {
  /** Port on 127.0.0.1 (default 5173; 0 takes a free one). Only 5173 is an allowed origin of the dev project. */
  port?: number;
  host?: string;
  /** The collector, e.g. `http://127.0.0.1:8787`; without it nothing is logged and the widget has nowhere to send. */
  collectorUrl?: string;
  /** Server key for traces (`rfs_…`); it stays on the server. */
  serverKey?: string;
  /** Write key for the widget (`rfw_…`), given to the page. */
  writeKey?: string;
  /** `"docs"` (default: the product's README) or the path of a directory in BEIR layout. */
  corpus?: string;
  /** Reorders retrieval's candidates (default: the collector's promoted model via `createReranker`, else retrieval's order). */
  reranker?: Reranker;
  /** Candidates retrieval hands the reranker (default 20). */
  retrieveK?: number;
  /** A language model (default: from `DEMO_LLM_*` environment variables, else quoted answers). */
  generator?: Generator;
  /** The clock traces are stamped with (default `Date.now`): a simulation of weeks of traffic passes its own. */
  now?: () => number;
  /** Where the demo says what it does (default console.log; tests pass a no-op); the same message at most once a minute. */
  log?: (message: string) => void;
  /** How long closing waits for a collector that does not answer to take the queued traces (default ten seconds). */
  closeTimeoutMs?: number;
}

export interface Demo {
  /** The page, e.g. `http://127.0.0.1:5173`. */
  url: string;
  /**
   * Stops taking requests, lets those on their way finish, then sends every trace still queued,
   * waiting `closeTimeoutMs` at most for the collector: each trace it has not taken by then is logged as not stored.
   */
  close(): Promise<void>;
}

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const { port = DEMO_PORT, host = '127.0.0.1', collectorUrl, serverKey, writeKey } = options;
  const log = mutingRepeats(options.log ?? console.log);
  const [corpus, assets] = await Promise.all([loadCorpus(options.corpus), loadPageAssets()]);
  if (corpus.duplicateIds) log(`demo: ${corpus.duplicateIds} documents of ${corpus.name} repeat an earlier id; the later one is kept`);
  const delivery = collectorUrl && serverKey ? watchDelivery(collectorUrl, writeKey) : undefined;
  const traces =
    collectorUrl && serverKey
      ? createTraceClient({
          endpoint: collectorUrl,
          serverKey,
          // Each attempt's failure is seen there, for the page to say.
          fetch: delivery?.fetch,
          // A reviewer opening the trace right after asking should find it there.
          flushIntervalMs: 200,
          onError: (r) => log(`demo: trace ${r.traceId} not stored: ${'field' in r ? `${r.field}: ` : ''}${'reason' in r ? r.reason : r.status}`),
        })
      : undefined;
  if (!traces) log('demo: no collector URL or server key given, so traces are not logged');
  const generator = options.generator ?? generatorFromEnv();
  const answerer = createAnswerer({
    corpus,
    reranker:
      options.reranker ??
      (collectorUrl && serverKey
        ? promotedReranker({
            endpoint: collectorUrl,
            serverKey,
            // Someone trying the loop asks again right after promoting or rolling back.
            revalidateWaitMs: 500,
            onError: (e) => log(`demo: no model from the collector: ${e.message}`),
          })
        : undefined),
    retrieveK: options.retrieveK,
    now: options.now,
    generator,
    logTrace: traces && ((t) => void traces.logTrace(t).then(delivery?.settled)),
    onStageError: (stage, err) =>
      log(
        `demo: the ${stage === 'reranker' ? 'reranker failed, keeping retrieval order' : `model ${generator?.model} failed, answering by quoting`}: ${(err as Error).message}`,
      ),
  });
  const app = createDemoApp({
    answerer,
    assets,
    deliveryProblem: (pageOrigin) => delivery?.problem(pageOrigin) ?? null,
    config: {
      endpoint: collectorUrl ?? null,
      writeKey: writeKey ?? null,
      consoleUrl: collectorUrl ? joinUrl(collectorUrl, 'admin') : null,
      corpus: { name: corpus.name, chunks: corpus.chunks.length, examples: corpus.examples ?? [] },
    },
  });
  const server = await serve(app.fetch, { port, host });
  return {
    url: server.url,
    async close() {
      // Answers still being made log their traces as they finish: the flush comes after them.
      await server.close();
      await traces?.flush({ timeoutMs: options.closeTimeoutMs ?? CLOSE_TIMEOUT_MS });
    },
  };
}
