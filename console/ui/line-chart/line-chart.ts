import { LineChart } from './line-chart.component.ts';

export * from './line-chart.component.ts';

customElements.define('rf-line-chart', LineChart);
