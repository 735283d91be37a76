import { SettingsPage } from './settings-page.component.ts';

export * from './settings-page.component.ts';

customElements.define('rf-settings-page', SettingsPage);
