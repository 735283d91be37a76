import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { api } from '../../api/client.ts';
import type { HealthSnapshot } from '../../api/types.ts';
import { navigate, paths, type Route } from '../../app/router.ts';
import { percent } from '../../i18n/locale.ts';
import { format, type Locale, type StringKey, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { filterSelect } from '../../ui/filter-select.ts';
import '../../ui/line-chart/line-chart.ts';
import type { ChartSeries } from '../../ui/line-chart/line-chart.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { DURATION_STEPS, duration, durations } from './duration.ts';
import { evalSeriesByModel } from './eval-series.ts';
import { styles } from './health-page.styles.ts';
import { withMissedNights } from './missed-nights.ts';

type Metric = keyof HealthSnapshot['metrics'] & string;
type Unit = 'share' | 'count' | 'ms';

/** The charts, each a few metrics of the daily snapshots with one unit; colours from console.css. */
const CHARTS: readonly { title: StringKey; unit: Unit; metrics: readonly [Metric, string][] }[] = [
  {
    title: 'chartRates',
    unit: 'share',
    metrics: [
      ['coverage', 'var(--c-accent)'],
      ['trustedCoverage', 'var(--c-good)'],
      ['effectiveRate', 'var(--c-warn)'],
      ['requeryRate', 'var(--c-bad)'],
    ],
  },
  {
    title: 'chartVolume',
    unit: 'count',
    metrics: [
      ['explicitSignals', 'var(--c-accent)'],
      ['implicitSignals', 'var(--c-good)'],
    ],
  },
  {
    title: 'chartReview',
    unit: 'count',
    metrics: [
      ['reviewedLastWeek', 'var(--c-good)'],
      ['reviewBudgetPerWeek', 'var(--c-muted)'],
      ['reviewQueue', 'var(--c-warn)'],
      ['confirmedExamples', 'var(--c-accent)'],
    ],
  },
  {
    title: 'chartLatency',
    unit: 'ms',
    metrics: [
      ['eventToStorageMs', 'var(--c-accent)'],
      ['storageToReviewMs', 'var(--c-warn)'],
    ],
  },
];

/** The latest snapshot's figures, in this order. */
/** The eval chart's lines, one per model version served, in the order they were first served. */
const EVAL_COLORS = ['var(--c-accent)', 'var(--c-good)', 'var(--c-warn)', 'var(--c-bad)', 'var(--c-muted)'];

const SUMMARY: readonly [Metric, Unit][] = [
  ['traces', 'count'],
  ['coverage', 'share'],
  ['trustedCoverage', 'share'],
  ['effectiveRate', 'share'],
  ['eventToStorageMs', 'ms'],
  ['storageToReviewMs', 'ms'],
  ['reviewedLastWeek', 'count'],
  ['reviewBudgetPerWeek', 'count'],
  ['reviewQueue', 'count'],
  ['confirmedExamples', 'count'],
  ['explicitSignals', 'count'],
  ['implicitSignals', 'count'],
  ['requeryRate', 'share'],
  ['outboxDrops', 'count'],
];

/** The spans the list offers; the address may name any the API takes (1 to 730 days). */
const DAY_OPTIONS = ['7', '30', '90', '365'];

/** A figure as its unit writes it. */
function formatUnit(unit: Unit, locale: Locale): (v: number) => string {
  if (unit === 'share') return percent;
  if (unit === 'ms') return (v) => duration(v, locale);
  return (v) => v.toLocaleString(locale, { maximumFractionDigits: 1 });
}

/** How a unit's axis ticks, where uPlot's decimal ticks will not do: durations by whole units, written in one. */
const axisOf = (unit: Unit, locale: Locale) =>
  unit === 'ms'
    ? { formatTicks: (ticks: number[]) => durations(ticks, locale), valueSteps: DURATION_STEPS }
    : { formatTicks: undefined, valueSteps: undefined };

/**
 * Loop health (seed 000 "How do I know the feedback loop itself is working?", seed 002, 2.4):
 * each metric over time, explicit against implicit volume, review throughput against the budget,
 * and eval scores per model version once retraining runs. `/admin/health?days=30`: the days the
 * address names, as the API takes them (one it refuses, `?days=0`, is said beside the list).
 */
export class HealthPage extends LitElement {
  static override styles = [baseStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    snapshots: { state: true },
    error: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  /** Oldest first, a missed night as one without figures. */
  declare snapshots: HealthSnapshot[] | undefined;
  /** Why the snapshots could not be fetched. */
  declare error: unknown;
  private loadedDays: string | undefined;

  private get days(): string {
    return this.route.query.get('days') || '30';
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('route') && this.days !== this.loadedDays) void this.load();
  }

  private async load() {
    const days = this.days;
    this.loadedDays = days;
    this.snapshots = undefined;
    this.error = undefined;
    try {
      const { snapshots } = await api<{ snapshots: HealthSnapshot[] }>(`/v1/admin/health?${new URLSearchParams({ days })}`);
      if (this.loadedDays === days) this.snapshots = withMissedNights([...snapshots].reverse());
    } catch (err) {
      if (this.loadedDays === days) this.error = err;
    }
  }

  override render() {
    const s = this.strings;
    const days = this.days;
    // Days the list does not offer, as the address names them, are listed among them.
    const options = DAY_OPTIONS.includes(days) ? DAY_OPTIONS : [...DAY_OPTIONS, days].sort((a, b) => Number(a) - Number(b));
    return html`<h1 tabindex="-1">${s.healthTitle}</h1>
      <p class="intro">${s.healthIntro}</p>
      <div class="filters">
        ${filterSelect(s, {
          name: 'days',
          label: s.days,
          value: days,
          options,
          words: (d) => d,
          loadError: this.error,
          choose: (days) => navigate(paths.health({ days })),
        })}
      </div>
      <p class="error" role="alert">${this.error ? loadFailed(this.error, s, this, () => this.load()) : ''}</p>
      ${this.renderBody()}`;
  }

  private renderBody() {
    const s = this.strings;
    const snaps = this.snapshots;
    if (!snaps) return this.error ? nothing : html`<p class="muted">${s.loading}</p>`;
    if (!snaps.length) return html`<p class="card">${s.noSnapshots}</p>`;
    const latest = snaps.at(-1)!;
    const days = snaps.map((x) => x.day);
    const series = (metrics: readonly [Metric, string][]): ChartSeries[] =>
      metrics.map(([m, color]) => ({ label: s[`metric_${m}` as StringKey], color, values: snaps.map((x) => x.metrics[m] ?? null) }));
    const evalScores = snaps.some((x) => x.metrics.evalNdcg5 != null);
    return html`<section class="card" aria-labelledby="latest-title">
        <h2 id="latest-title">${format(s.latest, { day: latest.day })}</h2>
        <p class="muted">${s.latestNote}</p>
        <dl class="facts summary" data-field="latest">
          ${SUMMARY.map(([m, unit]) => {
            const v = latest.metrics[m];
            return html`<div data-metric=${m}><dt>${s[`metric_${m}` as StringKey]}</dt><dd>${v == null ? s.notSet : formatUnit(unit, this.locale)(v)}</dd></div>`;
          })}
        </dl>
      </section>
      <div class="charts">
        ${CHARTS.map((c) => {
          const axis = axisOf(c.unit, this.locale);
          return html`<section class="card">
              <rf-line-chart
                .strings=${s}
                locale=${this.locale}
                heading=${s[c.title]}
                from-zero
                .ceiling=${c.unit === 'share' ? 1 : undefined}
                .days=${days}
                .series=${series(c.metrics)}
                .formatValue=${formatUnit(c.unit, this.locale)}
                .formatTicks=${axis.formatTicks}
                .valueSteps=${axis.valueSteps}
              ></rf-line-chart>
            </section>`;
        })}
        <section class="card">
          ${
            evalScores
              ? html`<rf-line-chart .strings=${s} locale=${this.locale} heading=${s.chartEval} .days=${days} .series=${evalSeriesByModel(snaps, s.evalUnnamedModel, EVAL_COLORS)} .formatValue=${(v: number) => v.toFixed(3)}></rf-line-chart>`
              : html`<h2 class="chart-title">${s.chartEval}</h2>
                <p class="muted">${s.noEvalScores}</p>`
          }
        </section>
      </div>`;
  }
}
