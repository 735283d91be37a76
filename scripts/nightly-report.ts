/** What `npm run nightly` prints of the collector's answer to POST /v1/admin/nightly. */
import type { NightlySummary as CollectorSummary } from '../shared/admin-api/nightly.ts';

/**
 * What POST /v1/admin/nightly answers, from collectors before it said when the call began too.
 */
export type NightlySummary = Omit<CollectorSummary, 'calledAt'> & Partial<Pick<CollectorSummary, 'calledAt'>>;

/** A report's parts in order: a line, or a table's rows. */
export type ReportPart = string | Record<string, string | number>[];

/**
 * The report of each run: `asked` is when this machine made the call (for a collector that does
 * not say when it began), `retrain` the command that trains on what was reviewed since. Times are
 * UTC, as the night, the collector and the other commands give them.
 */
export function nightlyReport(summary: NightlySummary, asked: number, retrain: string): ReportPart[] {
  const parts: ReportPart[] = [];
  for (const run of summary.runs) {
    // A night runs once: asked again, the collector answers with the report of the run that did it.
    // Compared by the collector's clock: this machine's may be minutes off.
    const before = run.finishedAt !== null && run.finishedAt < (summary.calledAt ?? asked);
    const at = before ? new Date(run.finishedAt!).toISOString() : '';
    const status = before ? `done earlier, at ${at}: its report` : run.status;
    parts.push(`night ${summary.night}, project ${run.projectId}: ${status}${run.stage ? ` (continues at ${run.stage})` : ''}`);
    parts.push(
      run.stages.map((s) => ({
        stage: s.name,
        slices: s.slices,
        ms: s.ms,
        counts: Object.entries(s.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      })),
    );
    // An earlier run's notes say what was so then (reviews since have not been counted): each says when.
    for (const s of run.stages) if (s.note) parts.push(`${s.name}${before ? ` (at ${at})` : ''}: ${s.note}`);
    if (before) parts.push(`The next night runs tomorrow (or the cron); \`${retrain}\` trains on what was reviewed since, now.`);
  }
  if (!summary.done) parts.push('Not done within this invocation: run it again to continue.');
  return parts;
}
