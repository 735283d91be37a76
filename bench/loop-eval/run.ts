/**
 * The cycle driver: a real collector under `wrangler dev`, the demo's backend over the collection,
 * and K simulated weeks of traffic, tonight's job at the week's end, and the reviewer's week.
 * After each week the promoted model is measured on the test and validation queries, which never
 * reach traffic, review or training.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isoWeek } from '../../collector/loop/eval-sets.ts';
import { passage } from '../../demo/corpus/chunk.ts';
import { startDemo } from '../../demo/server/index.ts';
import { type PromotedReranker, promotedReranker } from '../../demo/server/promoted-reranker.ts';
import { freePort, holdPort } from '../../scripts/free-port.ts';
import { NO_RATE_LIMITS, startLocalCollector } from '../../scripts/local-collector.ts';
import { retrainRemote } from '../../scripts/retrain/retrain-remote.ts';
import { queryKey } from '../../shared/terms.ts';
import { utcDay } from '../../shared/time.ts';
import { type HeapSampler, sampleIsolateHeap } from '../isolate-heap.ts';
import { anchorsFor } from './anchors.ts';
import { type JudgedQuery, loadCollection } from './collection.ts';
import { type Admin, adminCall, listModels, modelArtifact, runNight, stageCount, traceStored, tracesWithSignal, trainingData } from './collector-api.ts';
import { type CorpusEmbedder, corpusEmbedder } from './corpus-embedder.ts';
import { curatedSuite, sendCuratedSuite } from './curated-suite.ts';
import { evaluator } from './evaluate.ts';
import { eventSink } from './http.ts';
import type { LoopEvalParams } from './params.ts';
import { rng } from './random.ts';
import { over, progressLine } from './report.ts';
import type { CycleRow, LoopEvalReport } from './report-shape.ts';
import { reviewWeek } from './reviewer.ts';
import { population, type SimClock, simulateWeek, TRAFFIC_MODEL } from './traffic.ts';
import { USER_MODEL } from './user-model.ts';
import { browserWeek } from './widget-sample.ts';

/** Measurements of the promoted model taken before a run gives up on the collector. */
const MEASURE_ATTEMPTS = 3;

/** Has the demo's reranker fetch the promoted model now, asking again when the request was lost. */
async function servePromoted(a: Admin, reranker: PromotedReranker): Promise<void> {
  const { current } = await listModels(a);
  for (let attempt = 1; ; attempt++) {
    await reranker.refresh();
    if ((reranker.version ?? null) === current) return;
    if (attempt === MEASURE_ATTEMPTS)
      throw new Error(`the demo's reranker has ${reranker.version ?? 'no model'} while ${current ?? 'none'} is promoted, ${MEASURE_ATTEMPTS} times`);
  }
}

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** The first Monday 00:00 UTC after `t`: simulated weeks start on ISO week boundaries. */
function nextMonday(t: number): number {
  const d = new Date(t);
  const day = (d.getUTCDay() + 6) % 7;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + (7 - day) * DAY;
}

export async function runLoopEval(params: LoopEvalParams, log: (line: string) => void = console.log): Promise<LoopEvalReport> {
  const started = Date.now();
  const collection = await loadCollection(params.data, params.validationShare, params.curatedShare);
  const r = rng(params.seed);
  // The demo's address is an allowed origin of the collector, which starts first: its port is held till then.
  const demoPort = await holdPort();
  const origin = `http://127.0.0.1:${demoPort.port}`;
  const collector = await startLocalCollector({ origins: [origin], vars: NO_RATE_LIMITS, inspectorPort: await freePort() }).catch(async (err) => {
    await demoPort.release();
    throw err;
  });
  const demoLog: string[] = [];
  let demo: Awaited<ReturnType<typeof startDemo>> | undefined;
  let heap: HeapSampler | undefined;
  let embeddings: CorpusEmbedder | undefined;
  try {
    if (params.corpusEmbeddings) {
      embeddings = await corpusEmbedder(params.data);
      const warm = Date.now();
      // The texts the demo hands the reranker: embedded once, before the clock matters, and kept.
      await embeddings.embedder.keep(collection.corpus.chunks.map(passage));
      log(
        `corpus embeddings: ${embeddings.embedder.id} built in ${embeddings.buildSeconds.toFixed(0)} s, the corpus embedded in ${((Date.now() - warm) / 1000).toFixed(0)} s`,
      );
    }
    const embedder = embeddings?.embedder;
    heap = await sampleIsolateHeap(collector.inspectorPort!);
    const a: Admin = { endpoint: collector.url, adminKey: collector.keys.admin };
    await adminCall(a, 'PUT', '/v1/admin/settings', {
      reviewMinutesPerWeek: params.reviewMinutesPerWeek,
      secondsPerReviewItem: params.secondsPerReviewItem,
      // Embedding features are computed in Node: retraining runs there, after each night.
      ...(embedder && { retrainEveryDays: 0 }),
    });
    // The team's curated questions, judged before any traffic (a control run keeps them out of traffic only).
    const suite = params.curatedUnsent ? [] : curatedSuite(collection.corpus.chunks, collection.curated, params.retrieveK);
    await sendCuratedSuite(a, suite);
    if (collection.curated.length)
      log(`curated suite: ${suite.length} of ${collection.curated.length} curated questions sent${params.curatedUnsent ? ' (none: the control)' : ''}`);
    // The demo's own reranker adapter. Models change only at night, and each week's traffic starts
    // once it has fetched the model promoted then (weekStarts), so every answer of a week ranks with
    // the same model and a run depends on its seed, not on when a background refresh landed.
    const demoReranker = promotedReranker({
      endpoint: collector.url,
      serverKey: collector.keys.server,
      refreshMs: WEEK,
      onError: (e) => demoLog.push(e.message),
      embedder,
    });
    let simNow = Date.now();
    const clock: SimClock = { now: () => simNow, set: (t) => (simNow = t) };
    await demoPort.release();
    demo = await startDemo({
      port: demoPort.port,
      collectorUrl: collector.url,
      serverKey: collector.keys.server,
      writeKey: collector.keys.write,
      corpus: params.data,
      retrieveK: params.retrieveK,
      reranker: demoReranker,
      now: clock.now,
      log: (m) => demoLog.push(m),
    });
    const evaluate = evaluator(collection.corpus.chunks, params.retrieveK, { endpoint: collector.url, serverKey: collector.keys.server }, embedder);
    const baseline = { test: await evaluate.bm25(collection.test), validation: await evaluate.bm25(collection.validation) };
    log(
      `BM25 baseline: test nDCG@10 ${baseline.test.ndcg10.toFixed(3)} (${baseline.test.queries} queries), validation ${over(baseline.validation, baseline.validation.ndcg10)} (${baseline.validation.queries})`,
    );

    const users = population(collection, r);
    const questions = new Map<string, JudgedQuery>();
    const asked = (text: string, q: JudgedQuery) => questions.set(queryKey(text), q);
    const sink = eventSink(collector.url, collector.keys.write, origin);
    const t0 = nextMonday(Date.now());
    const rows: CycleRow[] = [];
    const gateRegressions: LoopEvalReport['gateRegressions'] = [];
    let promotedVersion: string | null = null;
    let promotedTest = baseline.test.ndcg10;
    const seenModels = new Set<string>();

    for (let cycle = 1; cycle <= params.cycles; cycle++) {
      const cycleStarted = Date.now();
      const weekStart = t0 + (cycle - 1) * WEEK;
      const before = { ...sink.counts };
      await servePromoted(a, demoReranker);
      const traffic = await simulateWeek({
        demoUrl: demo.url,
        sink,
        clock,
        population: users,
        asked,
        sessions: params.sessions,
        weekStart,
        weekMs: WEEK,
        seed: params.seed,
        cycle,
        rng: r,
        flood: true,
      });
      const browser =
        params.browserSessions > 0
          ? await browserWeek({ demoUrl: demo.url, clock, population: users, asked, sessions: params.browserSessions, weekStart, weekMs: WEEK, rng: r })
          : { asks: 0, lastTraceId: undefined };
      await traceStored(a, browser.lastTraceId ?? traffic.lastTraceId!);
      if (traffic.lastTraceId) await traceStored(a, traffic.lastTraceId);
      const pushBacksMarked = await tracesWithSignal(a, traffic.pushedBack, 'contradicted_by_follow_up');

      // The night at the end of the simulated week (Sunday 23:30 UTC).
      const at = weekStart + WEEK - 30 * 60_000;
      heap.windowPeakMb();
      const stages = await runNight(a, at);
      await heap.sampleNow();
      const workerHeapMb = heap.windowPeakMb();
      const train = stages.find((s) => s.name === 'train');
      const retrained = embedder ? await retrainRemote({ endpoint: collector.url, adminKey: collector.keys.admin }, { embedder, now: at }) : undefined;
      const review = await reviewWeek({ endpoint: collector.url, adminKey: collector.keys.admin, questions, errorRate: params.reviewerError, rng: r });
      const queue = await adminCall<{ training: { confirmed: number } }>(a, 'GET', '/v1/admin/review?limit=1');
      if (params.trainingData) {
        // What next week's night will train on, for studying the learner away from the loop.
        const data = await trainingData(a, at + WEEK);
        mkdirSync(params.trainingData, { recursive: true });
        writeFileSync(join(params.trainingData, `week-${cycle}.json`), JSON.stringify(data));
      }

      const models = await listModels(a);
      // The reranker client keeps retrieval's order when it cannot fetch or apply the model (as a
      // backend should); a measurement must not, so it is taken again until it ranked with the promoted one.
      const promoted = async (queries: typeof collection.test) => {
        for (let attempt = 1; ; attempt++) {
          const measured = await evaluate.promoted(queries);
          const version = measured.version ?? null;
          if (version === models.current && measured.errors.length === 0) return measured;
          const what = `the reranker ranked with ${version ?? 'no model'} while ${models.current ?? 'none'} is promoted${measured.errors.length ? ` (${measured.errors[0]!.message})` : ''}`;
          if (attempt === MEASURE_ATTEMPTS) throw new Error(`${what}, ${MEASURE_ATTEMPTS} times`);
          log(`${what}; measuring again`);
        }
      };
      const { metrics: test, version } = await promoted(collection.test);
      const { metrics: validation } = await promoted(collection.validation);
      const askedQueries = [...new Map([...questions.values()].map((q) => [q.id, q])).values()];
      const askedMetrics = {
        queries: askedQueries.length,
        bm25: (await evaluate.bm25(askedQueries)).ndcg10,
        promoted: (await promoted(askedQueries)).metrics.ndcg10,
      };
      const fresh = models.models.filter((m) => !seenModels.has(m.version));
      for (const m of fresh) seenModels.add(m.version);
      let candidate: CycleRow['candidate'] = null;
      const trainedNow = fresh[0];
      if (trainedNow) {
        const artifact = await modelArtifact(a, trainedNow.version);
        candidate = {
          version: trainedNow.version,
          decision: trainedNow.decision,
          testNdcg10: (await evaluate.model(artifact, collection.test)).ndcg10,
          validationNdcg10: (await evaluate.model(artifact, collection.validation)).ndcg10,
          askedNdcg10: (await evaluate.model(artifact, askedQueries)).ndcg10,
          weights: Object.fromEntries(artifact.features.map((f, i) => [f, artifact.weights[i]!])),
          training: artifact.training,
        };
      }
      const current = version ?? null;
      if (current !== promotedVersion) {
        if (test.ndcg10 < promotedTest)
          gateRegressions.push({ version: current ?? 'retrieval', replaced: promotedVersion, before: promotedTest, after: test.ndcg10 });
        promotedVersion = current;
        promotedTest = test.ndcg10;
      }
      const row: CycleRow = {
        cycle,
        week: isoWeek(utcDay(at)),
        sessions: traffic.sessions,
        traces: traffic.asks + browser.asks,
        browserTraces: browser.asks,
        eventsSent: sink.counts.sent - before.sent,
        eventsStored: sink.counts.stored - before.stored,
        eventsDuplicate: sink.counts.duplicate - before.duplicate,
        eventsAssessed: stageCount(stages, 'assess', 'events'),
        trustedSignals: stageCount(stages, 'assess', 'events') - stageCount(stages, 'assess', 'lowConfidence'),
        pushedBack: traffic.pushedBack.length,
        pushBacksMarked,
        mined: stageCount(stages, 'mine', 'candidates'),
        reviewed: review.answered,
        reviewedRelevant: review.relevant,
        reviewMistakes: review.mistakes,
        pendingLeft: review.pendingLeft,
        confirmed: queue.training.confirmed,
        trained: trainedNow?.version ?? null,
        gate: retrained
          ? retrained.trained
            ? `${retrained.model.version} ${retrained.decision.promote ? 'promoted' : 'rejected'}: ${retrained.decision.reasons.join('; ')}`
            : `not trained: ${retrained.reason}`
          : (train?.note ?? (train ? Object.keys(train.counts).join(', ') : 'no train stage')),
        promoted: current,
        test,
        validation,
        asked: askedMetrics,
        candidate,
        helpfulShare: traffic.asks > traffic.floodAsks ? traffic.helpful / (traffic.asks - traffic.floodAsks) : 0,
        workerHeapMb,
        seconds: Math.round((Date.now() - cycleStarted) / 1000),
      };
      rows.push(row);
      log(progressLine(row));
    }
    const notStored = demoLog.filter((l) => l.includes('not stored'));
    if (notStored.length) log(`warning: ${notStored.length} traces not stored, e.g. ${notStored[0]}`);
    const last = rows.at(-1);
    return {
      date: new Date().toISOString().slice(0, 10),
      params,
      collection: {
        name: collection.name,
        documents: collection.corpus.chunks.length,
        duplicateIds: collection.corpus.duplicateIds ?? 0,
        trafficQueries: collection.traffic.length,
        validationQueries: collection.validation.length,
        curatedQueries: collection.curated.length,
        curatedSent: suite.length,
        testQueries: collection.test.length,
        excluded: collection.excluded,
      },
      userModel: USER_MODEL,
      trafficModel: TRAFFIC_MODEL,
      baseline,
      anchors: anchorsFor(collection.name) ?? null,
      cycles: rows,
      final: { test: last?.test ?? baseline.test, validation: last?.validation ?? baseline.validation, promoted: last?.promoted ?? null },
      gateRegressions,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await demoPort.release();
    heap?.stop();
    await demo?.close();
    await embeddings?.close();
    await collector.stop();
  }
}
