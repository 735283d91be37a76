import type { HealthSnapshot } from '../../api/types.ts';
import type { ChartSeries } from '../../ui/line-chart/chart-series.ts';

/**
 * The served model's eval score as one line per model version, so that a promotion or a rollback
 * shows as another line rather than a jump in one: each line has its version's score on the nights
 * it was served. Nights recorded before the version was kept form a line of their own, `unnamed`.
 */
export function evalSeriesByModel(snaps: readonly HealthSnapshot[], unnamed: string, colors: readonly string[]): ChartSeries[] {
  const scored = snaps.filter((x) => x.metrics.evalNdcg5 != null);
  const versions = [...new Set(scored.map((x) => x.servedModel ?? null))];
  return versions.map((version, i) => ({
    label: version ?? unnamed,
    color: colors[i % colors.length]!,
    values: snaps.map((x) => ((x.servedModel ?? null) === version ? (x.metrics.evalNdcg5 ?? null) : null)),
  }));
}
