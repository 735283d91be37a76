import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { featureRows, queryView, termCosine } from '../reranker/features.ts';
import { parseRerankerModel } from '../reranker/model.ts';
import { rerankWithModel } from '../reranker/rerank.ts';
import { queryKey } from '../terms.ts';
import type { Confirmed } from './data.ts';
import { dominantOrigin } from './dominance.ts';
import { SAME_QUESTION, TrainingEvidence } from './evidence.ts';
import { estimateExamination, examinationByVerdict } from './examination.ts';
import { trainingWorld } from './fixture.ts';
import { DEFAULT_GATE, decide, decidingRows, evaluate, pairedT, type QueryMetrics, retrievalOrder, summarize, tCritical } from './gate.ts';
import { GateFindingSchema, reasonOf } from './gate-findings.ts';
import { consolidate, trainReranker } from './train.ts';

const options = { version: 'v1', now: 1_767_225_600_000 };

describe('trainReranker', () => {
  it('improves nDCG@5 on held-out queries worded differently from the training ones', () => {
    const { data, heldOut } = trainingWorld();
    const { model } = trainReranker(data, options);
    const base = evaluate(retrievalOrder, heldOut);
    const trained = evaluate((q, c) => rerankWithModel(model, q, c).map((r) => r.chunkId), heldOut);
    expect(base.overall.queries).toBe(40);
    expect(trained.overall.ndcg5).toBeGreaterThan(base.overall.ndcg5 + 0.1);
    expect(decide(trained, base).promote).toBe(true);
  });

  it('leaves each training query out of its own features, so the memory is not a perfect answer key', () => {
    // Each topic judged once: with the query itself left out, memory says nothing about it in training.
    const { data } = trainingWorld(10);
    const { model } = trainReranker(data, options);
    const memory = model.features.indexOf('memory_relevant');
    expect(model.weights[memory]).toBeCloseTo(0, 6);
  });

  it('reads a question that pushes back for what it asks, in training and in ranking', () => {
    const { data, heldOut } = trainingWorld();
    const pushedBack = (query: string) => `That's wrong. ${query}`;
    const pushed = {
      ...data,
      confirmed: data.confirmed.map((c) => ({ ...c, query: pushedBack(c.query) })),
      lists: data.lists.map((l) => ({ ...l, query: pushedBack(l.query) })),
    };
    const { model } = trainReranker(pushed, options);
    expect(model.memory.queries.flatMap((q) => q.terms)).not.toContain('wrong');
    expect(model.weights).toEqual(trainReranker(data, options).model.weights);
    for (const q of heldOut.slice(0, 5)) {
      expect(rerankWithModel(model, `Are you sure? ${q.query}`, q.candidates)).toEqual(rerankWithModel(model, q.query, q.candidates));
    }
  });

  it('writes an artifact that parses, and grows with judgements rather than traffic', () => {
    const small = trainReranker(trainingWorld(20).data, options).model;
    const { data } = trainingWorld(20);
    const busy = { ...data, engagement: Array.from({ length: 5000 }, (_, i) => ({ chunkId: `rel-${i % 20}`, rank: 1 + (i % 5), shown: 3, engaged: i % 2 })) };
    const trafficked = trainReranker(busy, options).model;
    expect(parseRerankerModel(JSON.stringify(small)).version).toBe('v1');
    expect(JSON.stringify(trafficked).length).toBeLessThan(JSON.stringify(small).length * 1.5);
    expect(trainReranker(trainingWorld(40).data, options).model.memory.judgements).toHaveLength(80);
  });

  it('refuses an artifact with a negative evidence count, which would score its chunk NaN', () => {
    const { model } = trainReranker(trainingWorld(20).data, options);
    const [chunkId] = Object.keys(model.priors.chunks);
    const bad = { ...model, priors: { ...model.priors, chunks: { ...model.priors.chunks, [chunkId!]: [0, -1] } } };
    expect(() => parseRerankerModel(JSON.stringify(bad))).toThrow(`not a reranker model: priors.chunks.${chunkId}.1: must be 0 or more`);
    const engaged = { ...model, engagement: { ...model.engagement, chunks: { x: [-2, 5] } } };
    expect(() => parseRerankerModel(engaged)).toThrow('engagement.chunks.x.0: must be 0 or more');
  });

  it('trains nothing from a verdict the reviewers split on', () => {
    const c = { queryKey: queryKey('q'), query: 'q', chunkId: 'c', sourceDocId: 'd' };
    expect(
      consolidate([
        { ...c, relevance: 1 },
        { ...c, relevance: 0 },
      ]),
    ).toEqual([]);
    expect(
      consolidate([
        { ...c, relevance: 1 },
        { ...c, relevance: 0 },
        { ...c, relevance: 1 },
      ]),
    ).toEqual([{ ...c, relevance: 1 }]);
  });
});

describe('the gate', () => {
  it('rejects a candidate worse than the current model and says why', () => {
    const { data, heldOut } = trainingWorld();
    const { model } = trainReranker(data, options);
    const good = evaluate((q, c) => rerankWithModel(model, q, c).map((r) => r.chunkId), heldOut);
    const worse = evaluate(retrievalOrder, heldOut);
    const decision = decide(worse, good);
    expect(decision.promote).toBe(false);
    expect(decision.reasons.join(' ')).toMatch(/nDCG@5 gain -\d\.\d{3} is below the minimum/);
    expect(decision.reasons.join(' ')).toMatch(/layer (echo|variant) loses/);
    expect(decision.findings.map((f) => f.kind)).toEqual(['gain_too_small', ...decision.findings.slice(1).map(() => 'layer_loses')]);
    expect(decision.findings.every((f) => v.is(GateFindingSchema, f))).toBe(true);
  });

  it('promotes a gain most queries share, not one a few queries make and others take back', () => {
    const summary = (ndcg5s: number[]) => summarize(ndcg5s.map((ndcg5) => ({ layer: 'replay', queries: 1, ndcg5, ndcg10: ndcg5, mrr10: ndcg5 })));
    const current = Array.from({ length: 40 }, (_, i) => 0.5 + (i % 5) / 10);
    // +0.02 on every query: a small gain, but a sure one.
    const steady = current.map((x) => x + 0.02);
    expect(
      decide(
        summary(steady),
        summary(current),
        DEFAULT_GATE,
        steady.map((x, i) => x - current[i]!),
      ).promote,
    ).toBe(true);
    // The same mean gain from two queries that jump while two others fall: noise.
    const lucky = current.map((x, i) => (i < 2 ? x + 0.6 : i < 4 ? x - 0.2 : x));
    const gains = lucky.map((x, i) => x - current[i]!);
    const decision = decide(summary(lucky), summary(current), DEFAULT_GATE, gains);
    expect(pairedT(gains)).toBeLessThan(tCritical(DEFAULT_GATE.z, gains.length - 1));
    expect(decision.promote).toBe(false);
    expect(decision.reasons[0]).toMatch(/^nDCG@5 gain 0\.020 could be chance: its t is 0\.\d\d, below the 1\.69 needed \(4 of 40 queries changed\)$/);
    // The same finding as data, for the console to word in its reader's language.
    expect(decision.findings).toEqual([
      { kind: 'gain_not_sure', gain: expect.closeTo(0.02, 9), t: pairedT(gains), needed: tCritical(DEFAULT_GATE.z, 39), changed: 4, queries: 40 },
    ]);
    expect(decision.reasons).toEqual(decision.findings.map(reasonOf));
  });

  it('asks small eval sets for more: the t a 5 % one-sided test needs, by degrees of freedom', () => {
    // Student's t tables: 1.833 at 9, 1.697 at 30, 1.660 at 100.
    expect(tCritical(DEFAULT_GATE.z, 9)).toBeCloseTo(1.833, 2);
    expect(tCritical(DEFAULT_GATE.z, 30)).toBeCloseTo(1.697, 2);
    expect(tCritical(DEFAULT_GATE.z, 100)).toBeCloseTo(1.66, 2);
  });

  it("measures the gain on the team's curated suite when it has enough queries, while the mined layers still veto a loss", () => {
    const rows = (layer: string, ndcg5s: number[]) => ndcg5s.map((ndcg5) => ({ layer, queries: 1, ndcg5, ndcg10: ndcg5, mrr10: ndcg5 }));
    const base = Array.from({ length: 20 }, (_, i) => 0.4 + (i % 5) / 10);
    const up = base.map((x) => x + 0.05);
    const down = (by: number) => base.map((x) => x - by);
    const gate = (candidate: QueryMetrics[], current: QueryMetrics[]) => {
      const paired = candidate.map((r, i) => ({ ...r, ndcg5: r.ndcg5 - current[i]!.ndcg5 }));
      const e = summarize(candidate);
      return decide(
        e,
        summarize(current),
        DEFAULT_GATE,
        decidingRows(paired, e).map((r) => r.ndcg5),
      );
    };
    const current = [...rows('replay', base), ...rows('curated', base)];
    // The mined layer loses a little (it favours what users were shown), the curated suite gains surely.
    const promoted = gate([...rows('replay', down(0.01)), ...rows('curated', up)], current);
    expect(promoted.promote).toBe(true);
    expect(promoted.findings).toEqual([{ kind: 'passed', before: expect.closeTo(0.6, 9), after: expect.closeTo(0.65, 9), queries: 20, basis: 'curated' }]);
    expect(promoted.reasons[0]).toBe('nDCG@5 0.600 → 0.650 (+0.050) on 20 held-out queries, on the curated suite');
    // The mined layer gains and the curated suite does not: rejected, on the curated suite's figure.
    const rejected = gate([...rows('replay', up), ...rows('curated', down(0.01))], current);
    expect(rejected.findings).toEqual([{ kind: 'gain_too_small', gain: expect.closeTo(-0.01, 9), minimum: 0.005, basis: 'curated' }]);
    // A mined layer losing more than the tolerance vetoes a curated gain.
    const vetoed = gate([...rows('replay', down(0.05)), ...rows('curated', up)], current);
    expect(vetoed.findings.map((f) => f.kind)).toEqual(['layer_loses']);
    // Too few curated queries to decide: the gain is every query's, as without a suite.
    const few = [...rows('replay', base), ...rows('curated', base.slice(0, 5))];
    const overall = gate([...rows('replay', up), ...rows('curated', base.slice(0, 5))], few);
    expect(overall.promote).toBe(true);
    expect(overall.findings[0]).toEqual({ kind: 'passed', before: expect.any(Number), after: expect.any(Number), queries: 25 });
    for (const d of [promoted, rejected, vetoed, overall]) expect(d.findings.every((f) => v.is(GateFindingSchema, f))).toBe(true);
  });

  it('scores no query whose answer’s chunks are gone: every ranker would rank it 0', () => {
    const { heldOut } = trainingWorld(12);
    const gone = heldOut.slice(0, 3).map((q) => ({ ...q, candidates: [] }));
    const e = evaluate(retrievalOrder, [...gone, ...heldOut.slice(3)]);
    expect(e.overall.queries).toBe(evaluate(retrievalOrder, heldOut.slice(3)).overall.queries);
    expect(e.overall.ndcg5).toBe(evaluate(retrievalOrder, heldOut.slice(3)).overall.ndcg5);
    expect(e.overall.queries).toBeGreaterThan(0);
  });

  it('counts a chunk a trace lists twice once: its second copy is nothing new to the user, nor a gain', () => {
    const chunk = (chunkId: string) => ({ chunkId, sourceDocId: `${chunkId}.md`, text: chunkId });
    // A trace may list a chunk at two ranks (two retrievers merged): the eval query keeps both.
    const q = { layer: 'replay', query: 'refunds', candidates: ['a', 'b', 'a', 'c'].map(chunk), judgements: { a: 1, b: 0 } };
    const byRetrieval = evaluate(retrievalOrder, [q]);
    expect(byRetrieval.overall.ndcg5).toBe(1);
    expect(byRetrieval.overall.ndcg10).toBe(1);
    // Putting the copies side by side shows the user nothing better.
    const together = evaluate(() => ['a', 'a', 'b', 'c'], [q]);
    expect(together.overall).toEqual(byRetrieval.overall);
  });

  it('cannot judge on too few held-out queries', () => {
    const { heldOut } = trainingWorld(4);
    const e = evaluate(retrievalOrder, heldOut);
    expect(decide(e, e).reasons[0]).toBe('only 4 judged held-out queries; the gate needs 10');
    expect(decide(e, e).findings[0]).toEqual({ kind: 'too_few_queries', queries: 4, needed: 10 });
  });
});

describe('position bias', () => {
  it('estimates examination falling with rank, relative to rank 1, never below the floor', () => {
    const rows = [1, 2, 3, 4].map((rank) => ({ chunkId: `c${rank}`, rank, shown: 1000, engaged: Math.round(400 / rank) }));
    const e = estimateExamination(rows, undefined, 5);
    expect(e.slice(0, 4).map((x) => Number(x.toFixed(2)))).toEqual([1, 0.5, 0.33, 0.25]);
    expect(e[4]).toBe(e[3]);
    expect(
      estimateExamination([
        { chunkId: 'a', rank: 1, shown: 1000, engaged: 1000 },
        { chunkId: 'b', rank: 2, shown: 1000, engaged: 0 },
      ])[1],
    ).toBe(0.05);
  });

  it('compares engagement by rank within each verdict, so better chunks sitting higher does not pass for position bias', () => {
    // Users examine rank 2 half as often as rank 1; relevant chunks draw 0.6 a look, others 0.1.
    // Retrieval puts relevant chunks first 9 times in 10, so raw rates by rank fall far more than by half.
    const rows = [
      { chunkId: 'r1', rank: 1, shown: 900, engaged: 540, queryKey: 'q1' },
      { chunkId: 'n1', rank: 1, shown: 100, engaged: 10, queryKey: 'q2' },
      { chunkId: 'r2', rank: 2, shown: 100, engaged: 30, queryKey: 'q2' },
      { chunkId: 'n2', rank: 2, shown: 900, engaged: 45, queryKey: 'q1' },
    ];
    const verdict = (queryKey: string, chunkId: string, relevance: 0 | 1) => ({ queryKey, query: queryKey, chunkId, sourceDocId: chunkId, relevance });
    const confirmed = [verdict('q1', 'r1', 1), verdict('q2', 'n1', 0), verdict('q2', 'r2', 1), verdict('q1', 'n2', 0)];
    const raw = estimateExamination(rows, undefined, 3);
    expect(raw[1]).toBeCloseTo(75 / 1000 / (550 / 1000), 6);
    const byVerdict = examinationByVerdict(confirmed, rows, raw);
    expect(byVerdict[1]).toBeCloseTo(0.5, 6);
    // Rank 3 has no judged impressions: it falls from rank 2 as the raw estimate does.
    expect(byVerdict[2]).toBeCloseTo(0.5 * (raw[2]! / raw[1]!), 6);
    expect(examinationByVerdict([], rows, raw)).toEqual(raw);
  });

  it('credits a chunk clicked at a low rank more than one clicked as often at the top', () => {
    const { data } = trainingWorld(20);
    const engagement = [
      ...[1, 2, 3, 4, 5].map((rank) => ({ chunkId: `filler-${rank}`, rank, shown: 1000, engaged: Math.round(300 / rank) })),
      { chunkId: 'top', rank: 1, shown: 100, engaged: 30 },
      { chunkId: 'low', rank: 5, shown: 100, engaged: 30 },
    ];
    const { model } = trainReranker({ ...data, engagement }, options);
    const [top, low] = [model.engagement.chunks.top!, model.engagement.chunks.low!];
    expect(low[0] / low[1]).toBeGreaterThan(3 * (top[0] / top[1]));
  });
});

describe('leaving a question out', () => {
  it('leaves out exactly the query keys whose terms are alike enough to be the same question, and keeps the others', () => {
    const word = fc.constantFrom('aspirin', 'dose', 'safe', 'side', 'effects', 'children', 'adults', 'daily', 'risk', 'heart');
    const key = fc.uniqueArray(word, { minLength: 0, maxLength: 6 }).map((w) => [...w].sort().join(' '));
    fc.assert(
      fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 25 }), key, (keys, unseen) => {
        // One judgement per key, all of the same chunk: what the chunk's memory keeps says which keys were left out.
        const confirmed = keys.map((k) => ({ queryKey: k, query: k, chunkId: 'c', sourceDocId: 'd', relevance: 1 as const }));
        const evidence = new TrainingEvidence(confirmed, [], [], [1]);
        const termsOf = (k: string) => new Set(k.split(' '));
        // A query without evidence of its own is looked up the same way.
        for (const k of [...keys, unseen]) {
          const kept = evidence
            .without(k)
            .remembered('c')
            .map((e) => [...e.terms].sort().join(' '));
          const expected = keys.filter((o) => o !== k && termCosine(termsOf(o), termsOf(k)) < SAME_QUESTION);
          expect(kept.sort()).toEqual(expected.map((o) => [...new Set(o ? o.split(' ') : [])].sort().join(' ')).sort());
        }
      }),
      { numRuns: 200 },
    );
  });
  it("sums what it leaves out in the keys' own order, whatever order the index finds them in", () => {
    const rows = ['a b c d e', 'a b c d f', 'a b c d e x'].map((queryKey, i) => ({ queryKey, chunkId: 'c', rank: i + 2, shown: 1, engaged: 0 }));
    const evidence = new TrainingEvidence([], [{ chunkId: 'c', rank: 1, shown: 5, engaged: 1 }], rows, [1, 0.1, 0.7, 0.3]);
    // 5 - (0.1 + 0.7 + 0.3) in that order; found in another order the last bit differs (3.9).
    expect(evidence.without('a b c d e').engagement('c')).toEqual([1, 5 - (0.1 + 0.7 + 0.3)]);
  });
});

describe('engagement', () => {
  const examination = [1, 0.5, 0.25];

  it("leaves a training query's impressions out with its engagement, so a chunk only it engaged with looks ordinary, not ignored", () => {
    const mine = { chunkId: 'c', sourceDocId: 'd', rank: 1, shown: 40, engaged: 20 };
    const others = { chunkId: 'x', sourceDocId: 'y', rank: 1, shown: 400, engaged: 40 };
    const evidence = new TrainingEvidence([], [mine, others], [{ ...mine, queryKey: 'q' }], examination);
    expect(evidence.all().engagement('c')).toEqual([20, 40]);
    expect(evidence.without('q').engagement('c')).toEqual([0, 0]);
    expect(evidence.without('q').documentEngagement('d')).toEqual([0, 0]);
    const [row] = featureRows(['engagement'], queryView('q'), [{ chunkId: 'c', sourceDocId: 'd', text: 't' }], evidence.without('q'));
    expect(row![0]).toBeCloseTo(0, 9);
  });

  it("weighs impressions by their rank's examination, and lets a document's other chunks speak for an unseen one", () => {
    const rows = [
      { chunkId: 'a1', sourceDocId: 'a', rank: 3, shown: 100, engaged: 25 },
      { chunkId: 'b1', sourceDocId: 'b', rank: 1, shown: 100, engaged: 5 },
    ];
    const evidence = new TrainingEvidence([], rows, [], examination).all();
    expect(evidence.engagement('a1')).toEqual([25, 25]);
    const [unseenOfA, unseenOfB] = featureRows(
      ['engagement'],
      queryView('q'),
      [
        { chunkId: 'a2', sourceDocId: 'a', text: 't' },
        { chunkId: 'b2', sourceDocId: 'b', text: 't' },
      ],
      evidence,
    );
    expect(unseenOfA![0]).toBeGreaterThan(0);
    expect(unseenOfB![0]).toBeLessThan(0);
  });
});

describe('dominance', () => {
  it('finds the session behind most of a batch', () => {
    const { data } = trainingWorld(10, (t) => (t < 6 ? 'flood' : `s${t}`));
    expect(dominantOrigin(data.confirmed, 0.3)).toEqual({ kind: 'session', id: 'flood', share: 0.6 });
    expect(dominantOrigin(trainingWorld(10).data.confirmed, 0.3)).toBeNull();
  });

  it('refuses a batch one origin raised more than 30% of, counting each example once, by session, user or address', () => {
    // Ten examples, each raised by the origins given for it, against a 30% share.
    const dominant = (origins: (i: number) => Confirmed['origins']) =>
      dominantOrigin(
        Array.from({ length: 10 }, (_, i) => ({ queryKey: `q${i}`, query: `q${i}`, chunkId: `c${i}`, sourceDocId: 'd', relevance: 1, origins: origins(i) })),
        0.3,
      );
    expect(dominant((i) => ({ sessions: [i < 3 ? 'a' : `s${i}`] }))).toBeNull();
    expect(dominant((i) => ({ sessions: [i < 4 ? 'a' : `s${i}`] }))).toEqual({ kind: 'session', id: 'a', share: 0.4 });
    // One example listing a session twice is still one example.
    expect(dominant((i) => ({ sessions: i < 3 ? ['a', 'a'] : [`s${i}`] }))).toBeNull();
    expect(dominant((i) => ({ ips: [i < 4 ? 'ip' : `ip${i}`] }))).toEqual({ kind: 'ip', id: 'ip', share: 0.4 });
    // The largest share is the one named.
    expect(dominant((i) => ({ sessions: [i < 4 ? 'a' : `s${i}`], users: [i < 6 ? 'u' : `u${i}`] }))).toEqual({
      kind: 'user',
      id: 'u',
      share: 0.6,
    });
  });
});
