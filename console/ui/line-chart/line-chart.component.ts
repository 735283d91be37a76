import { html, LitElement, type PropertyDeclarations, unsafeCSS } from 'lit';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css';
import { format, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../base.styles.ts';
import type { ChartSeries } from './chart-series.ts';
import { styles } from './line-chart.styles.ts';
import { resolveColor } from './resolve-color.ts';

const DAY_S = 86_400;
/** Steps between the time axis's ticks: whole days, then whole months (uPlot counts 30 days a month). */
const DAY_STEPS = [1, 2, 3, 7, 14, 30, 60, 90, 180, 360].map((d) => d * DAY_S);

export type { ChartSeries };

/**
 * A line chart of daily values (uPlot, drawn on a canvas), with the same numbers in a table for
 * screen readers and keyboard users. Redrawn when the theme changes or the element resizes.
 */
export class LineChart extends LitElement {
  static override styles = [baseStyles, unsafeCSS(uplotCss), styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    heading: {},
    days: { attribute: false },
    series: { attribute: false },
    formatValue: { attribute: false },
    formatTicks: { attribute: false },
    valueSteps: { attribute: false },
    locale: {},
    fromZero: { type: Boolean, attribute: 'from-zero' },
    ceiling: { attribute: false },
  };

  declare strings: Strings;
  /** What the chart shows, its accessible name. */
  declare heading: string;
  /** The days, YYYY-MM-DD, oldest first. */
  declare days: string[];
  declare series: ChartSeries[];
  /** How a value is written in the table and, unless `formatTicks` is given, the axis. */
  declare formatValue: (v: number) => string;
  /** How the axis writes its ticks together, for figures whose unit must be the same along it. */
  declare formatTicks: ((ticks: number[]) => string[]) | undefined;
  /** Steps the value axis may tick by, for units that are not decimal (durations); uPlot's own by default. */
  declare valueSteps: number[] | undefined;
  /** The language the axis writes days in. */
  declare locale: string;
  /** Counts and shares start their axis at zero, so a small change does not look large. */
  declare fromZero: boolean;
  /** The most a value can be (1 for shares): the axis stops there, even over a line of zeros, which uPlot would span to 100. */
  declare ceiling: number | undefined;

  /** The plot drawn; not private, as the build shortens private names: the browser tests read the scales it drew. */
  plot: uPlot | undefined;
  private drawnWidth = 0;
  /** Redraws only when the width changed: the plot's own drawing must not set it off again. */
  private readonly resize = new ResizeObserver(() => {
    if (this.clientWidth !== this.drawnWidth) this.draw();
  });
  private readonly themeWatch = new MutationObserver(() => this.draw());
  private readonly scheme = matchMedia('(prefers-color-scheme: dark)');
  private readonly onScheme = () => this.draw();

  constructor() {
    super();
    this.days = [];
    this.series = [];
    this.formatValue = (v) => String(v);
    this.locale = 'en';
    this.fromZero = false;
  }

  override connectedCallback() {
    super.connectedCallback();
    this.resize.observe(this);
    this.themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    this.scheme.addEventListener('change', this.onScheme);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.resize.disconnect();
    this.themeWatch.disconnect();
    this.scheme.removeEventListener('change', this.onScheme);
    this.plot?.destroy();
    this.plot = undefined;
  }

  override render() {
    const s = this.strings;
    const summary = format(s.chartSummary, { title: this.heading, series: this.series.map((x) => x.label).join(', '), n: this.days.length });
    return html`<figure>
      <figcaption>${this.heading}</figcaption>
      <div class="plot" role="img" aria-label=${summary}></div>
      <details>
        <summary>${s.chartData}</summary>
        <table>
          <thead>
            <tr><th scope="col">${s.day}</th>${this.series.map((x) => html`<th scope="col">${x.label}</th>`)}</tr>
          </thead>
          <tbody>
            ${this.days.map(
              (day, i) =>
                html`<tr><th scope="row">${day}</th>${this.series.map((x) => html`<td>${x.values[i] == null ? s.notSet : this.formatValue(x.values[i]!)}</td>`)}</tr>`,
            )}
          </tbody>
        </table>
      </details>
    </figure>`;
  }

  override updated() {
    this.draw();
  }

  /** (Re)draws the plot at the element's width in the colours of the theme in force. */
  private draw() {
    const target = this.renderRoot.querySelector<HTMLElement>('.plot');
    if (!target || !this.isConnected) return;
    this.plot?.destroy();
    this.drawnWidth = this.clientWidth;
    const fg = resolveColor(this, 'var(--c-fg)');
    const grid = resolveColor(this, 'var(--c-border)');
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const x = this.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const xRange: uPlot.Range.MinMax = x.length > 1 ? [x[0]!, x.at(-1)!] : [(x[0] ?? 0) - DAY_S, (x[0] ?? 0) + DAY_S];
    const dayLabel = new Intl.DateTimeFormat(this.locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const ticks = this.formatTicks ?? ((t: number[]) => t.map((v) => this.formatValue(v)));
    const { fromZero, ceiling } = this;
    this.plot = new uPlot(
      {
        width: Math.max(240, target.clientWidth || this.clientWidth || 480),
        height: 200,
        // Days are UTC days: ticks fall on their midnights wherever the reader is.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: {
          // A single day still gets a readable axis: a day either side of it.
          x: { time: true, auto: false, range: (): uPlot.Range.MinMax => xRange },
          y: {
            range: (_u, min, max): uPlot.Range.MinMax => {
              const [lo, hi] = uPlot.rangeNum(fromZero ? Math.min(0, min) : min, fromZero ? Math.max(0, max) : max, 0.1, true);
              // + 0: no "-0" tick.
              return [lo! + 0, ceiling === undefined ? hi : Math.min(hi!, ceiling)];
            },
          },
        },
        axes: [
          { ...axis, incrs: DAY_STEPS, values: (_u, t) => t.map((v) => dayLabel.format(v * 1000)) },
          { ...axis, size: 72, values: (_u, t) => ticks(t), ...(this.valueSteps && { incrs: this.valueSteps }) },
        ],
        series: [{}, ...this.series.map((x) => ({ label: x.label, stroke: resolveColor(this, x.color), width: 2, points: { show: true, size: 6 } }))],
        // The series' names only: the numbers are in the table below.
        legend: { show: true, live: false },
      },
      [x, ...this.series.map((x) => x.values)],
      target,
    );
  }
}
