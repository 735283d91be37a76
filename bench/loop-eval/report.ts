/** The report as a table per week, beside the BM25 baseline measured in the same run and the published anchors. */
import type { LoopEvalReport } from './run.ts';

const f3 = (x: number) => x.toFixed(3);
const pad = (cells: readonly string[], widths: readonly number[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');

/** The gate's verdict in a word or two. */
export function gateWord(row: LoopEvalReport['cycles'][number]): string {
  if (row.candidate) return row.candidate.decision;
  if (/notDue/.test(row.gate)) return 'not due';
  if (/nothingNew/.test(row.gate)) return 'nothing new';
  if (/not trained/.test(row.gate)) return 'too few';
  return '-';
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
    'helpful',
  ];
  const widths = head.map((h) => Math.max(h.length, 7));
  const lines = [pad(head, widths)];
  const b = report.baseline;
  lines.push(pad(['BM25', '', '', '', '', '', '', '', f3(b.test.ndcg10), f3(b.test.ndcg5), f3(b.test.recall100), f3(b.validation.ndcg10), '', '', ''], widths));
  for (const r of report.cycles)
    lines.push(
      pad(
        [
          String(r.cycle),
          String(r.traces),
          String(r.eventsAccepted),
          String(r.trustedSignals),
          String(r.mined),
          String(r.reviewed),
          String(r.confirmed),
          gateWord(r),
          f3(r.test.ndcg10),
          f3(r.test.ndcg5),
          f3(r.test.recall100),
          f3(r.validation.ndcg10),
          r.candidate ? f3(r.candidate.testNdcg10) : '',
          r.candidate ? f3(r.candidate.validationNdcg10) : '',
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
  print(
    `seed ${report.params.seed}, ${report.params.cycles} weeks of ${report.params.sessions} sessions, review ${report.params.reviewMinutesPerWeek} min/week, reviewer error ${report.params.reviewerError}`,
  );
  print(reportTable(report));
  print(
    `anchors (${report.anchors.source}): BM25 ${f3(report.anchors.bm25)}, BM25 + cross-encoder ${f3(report.anchors.bm25CrossEncoder)}; this run's BM25 ${f3(report.baseline.test.ndcg10)}`,
  );
  print(
    `final: test nDCG@10 ${f3(report.final.test.ndcg10)} (${report.final.test.ndcg10 >= report.baseline.test.ndcg10 ? '+' : ''}${f3(report.final.test.ndcg10 - report.baseline.test.ndcg10)} over BM25), validation ${f3(report.final.validation.ndcg10)}, model ${report.final.promoted ?? 'none promoted'}`,
  );
  print(
    report.gateRegressions.length
      ? `gate: ${report.gateRegressions.length} promotion(s) worse on test than the model replaced: ${report.gateRegressions.map((g) => `${g.version} ${f3(g.before)} -> ${f3(g.after)}`).join(', ')}`
      : 'gate: no promotion was worse on the test queries than the model it replaced',
  );
  print(`${report.seconds} s in all`);
}
