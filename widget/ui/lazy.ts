// The parts of the UI that only some answers need, loaded after first render.
export { renderPanel } from './panel.ts';
export { renderPrompt } from './prompt.ts';
export { panelStyles } from './panel.styles.ts';
