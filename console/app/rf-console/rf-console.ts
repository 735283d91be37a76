import { RfConsole } from './rf-console.component.ts';

export * from './rf-console.component.ts';

customElements.define('rf-console', RfConsole);
