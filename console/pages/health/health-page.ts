import { HealthPage } from './health-page.component.ts';

export * from './health-page.component.ts';

customElements.define('rf-health-page', HealthPage);
