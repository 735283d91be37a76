/** The report as a table per week, beside the BM25 baseline measured in the same run and the published anchors. */
import type { Metrics } from './evaluate.ts';
import type { CycleRow, LoopEvalReport } from './report-shape.ts';

const f3 = (x: number) => x.toFixed(3);
/** A figure over a set of queries: none when the set is empty (a small collection may hold no validation query). */
export const over = (m: Metrics, x: number) => (m.queries ? f3(x) : 'n/a');
const blank = (n: number): string[] => Array.from({ length: n }, () => '');
const pad = (cells: readonly string[], widths: readonly number[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');

/** The gate's verdict in a word or two. */
export function gateWord(row: CycleRow): string {
  if (row.candidate) return row.candidate.decision;
  if (/notDue/.test(row.gate)) return 'not due';
  // The night's words (counts or note), or retraining's in Node: "too few" only when that was the reason.
  if (/nothingNew|no confirmed example is new/.test(row.gate)) return 'nothing new';
  if (/not trained: \d+ confirmed examples; training needs/.test(row.gate)) return 'too few';
  if (/not trained/.test(row.gate)) return 'not trained';
  return '-';
}

/**
 * A week's progress line. The night trains before the week's review, so what it says of confirmed
 * examples is the count before that review, and the line says which count is which.
 */
export function progressLine(row: CycleRow): string {
  const { test, validation, asked, candidate } = row;
  return (
    `week ${row.cycle} (${row.week}): ${row.traces} traces, ${row.eventsStored} events, ${row.trustedSignals} trusted (${row.pushBacksMarked} of ${row.pushedBack} answers pushed back on marked), ${row.mined} mined, ${row.reviewed} reviewed (${row.reviewedRelevant} relevant), ${row.confirmed} confirmed after the review; ` +
    `the night before it: ${row.gate}; test nDCG@10 ${f3(test.ndcg10)}, validation ${over(validation, validation.ndcg10)}, ${asked.queries} questions asked ${f3(asked.promoted)} (BM25 ${f3(asked.bm25)})` +
    (candidate
      ? `; candidate ${candidate.version} test ${f3(candidate.testNdcg10)} validation ${over(validation, candidate.validationNdcg10)} asked ${f3(candidate.askedNdcg10)}`
      : '') +
    `; the Worker's heap up to ${Math.round(row.workerHeapMb)} MB in the night (${row.seconds} s)`
  );
}

export function reportTable(report: LoopEvalReport): string {
  const head = [
    'week',
    'traces',
    'events',
    'trusted',
    'mined',
    'reviewed',
    'confirmed',
    'gate',
    'test nDCG@10',
    'nDCG@5',
    'R@100',
    'val nDCG@10',
    'cand. test',
    'cand. val',
    'asked BM25',
    'asked',
    'cand. asked',
    'helpful',
  ];
  const widths = head.map((h) => Math.max(h.length, 7));
  const lines = [pad(head, widths)];
  const b = report.baseline;
  lines.push(
    pad(['BM25', ...blank(7), f3(b.test.ndcg10), f3(b.test.ndcg5), f3(b.test.recall100), over(b.validation, b.validation.ndcg10), ...blank(6)], widths),
  );
  for (const r of report.cycles)
    lines.push(
      pad(
        [
          String(r.cycle),
          String(r.traces),
          String(r.eventsStored),
          String(r.trustedSignals),
          String(r.mined),
          String(r.reviewed),
          String(r.confirmed),
          gateWord(r),
          f3(r.test.ndcg10),
          f3(r.test.ndcg5),
          f3(r.test.recall100),
          over(r.validation, r.validation.ndcg10),
          r.candidate ? f3(r.candidate.testNdcg10) : '',
          r.candidate ? over(r.validation, r.candidate.validationNdcg10) : '',
          f3(r.asked.bm25),
          f3(r.asked.promoted),
          r.candidate ? f3(r.candidate.askedNdcg10) : '',
          `${Math.round(r.helpfulShare * 100)}%`,
        ],
        widths,
      ),
    );
  return lines.join('\n');
}

export function printReport(report: LoopEvalReport, print: (line: string) => void = console.log): void {
  const c = report.collection;
  print(
    `\n${c.name}: ${c.documents} documents; ${c.trafficQueries} train queries in traffic, ${c.validationQueries} held out for validation, ${c.testQueries} test queries (never asked)`,
  );
  const left = [
    c.excluded.sameAsTest && `${c.excluded.sameAsTest} train queries not asked: test queries by id or in the same words`,
    c.excluded.sameAsValidation && `${c.excluded.sameAsValidation} not asked: in a validation query's words`,
    c.curatedQueries &&
      `${c.curatedQueries} not asked: the curated suite, of which ${c.curatedSent} were sent to the gate (a relevant document retrieved${report.params.curatedUnsent ? '; none: the control' : ''})`,
    c.excluded.sameAsCurated && `${c.excluded.sameAsCurated} not asked: in a curated question's words`,
    c.excluded.tooLongToAsk && `${c.excluded.tooLongToAsk} not asked: longer than a trace keeps`,
    c.excluded.unusable.train && `${c.excluded.unusable.train} train queries left out: no text or no relevant document`,
    c.excluded.unusable.test && `${c.excluded.unusable.test} test queries left out: no text`,
    c.excluded.noneRelevantInTest &&
      `${c.excluded.noneRelevantInTest} test queries with no relevant document, each counted as 0 (as BEIR's evaluation counts them)`,
    c.excluded.notInCorpus.train + c.excluded.notInCorpus.test &&
      `${c.excluded.notInCorpus.train} train and ${c.excluded.notInCorpus.test} test relevant judgements name a document not in corpus.jsonl (counted, never found)`,
    c.duplicateIds && `${c.duplicateIds} documents repeat an earlier id (the later kept)`,
  ].filter(Boolean);
  if (left.length) print(`${left.join('; ')}`);
  print(
    `seed ${report.params.seed}, ${report.params.cycles} weeks of ${report.params.sessions} sessions, review ${report.params.reviewMinutesPerWeek} min/week, reviewer error ${report.params.reviewerError}`,
  );
  print(reportTable(report));
  print(
    `asked: nDCG@10 on the train questions users asked so far (${report.cycles.at(-1)?.asked.queries ?? 0} by the last week), judged as the simulated reviewer answers them: what the loop learnt, not what generalises`,
  );
  const a = report.anchors;
  print(
    a
      ? `anchors (${a.source}): BM25 ${f3(a.bm25)}, BM25 + cross-encoder ${f3(a.bm25CrossEncoder)}; this run's BM25 ${f3(report.baseline.test.ndcg10)}`
      : `no published anchors for ${c.name}; this run's BM25 ${f3(report.baseline.test.ndcg10)}`,
  );
  print(
    `final: test nDCG@10 ${f3(report.final.test.ndcg10)} (${report.final.test.ndcg10 >= report.baseline.test.ndcg10 ? '+' : ''}${f3(report.final.test.ndcg10 - report.baseline.test.ndcg10)} over BM25), validation ${over(report.final.validation, report.final.validation.ndcg10)}, model ${report.final.promoted ?? 'none promoted'}`,
  );
  print(
    report.gateRegressions.length
      ? `gate: ${report.gateRegressions.length} promotion(s) worse on test than the model replaced: ${report.gateRegressions.map((g) => `${g.version} ${f3(g.before)} -> ${f3(g.after)}`).join(', ')}`
      : 'gate: no promotion was worse on the test queries than the model it replaced',
  );
  print(`${report.seconds} s in all`);
}
