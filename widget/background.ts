// Everything the first render does not need, fetched as one chunk as soon as the widget runs:
// the recorder (outbox, transport, redaction), web vitals, query similarity, and the popover,
// correction form and prompts with their strings (their styles come with the element's).

// web-vitals' ES modules, not its prebuilt file: the build leaves out their soft-navigation code.
export { onCLS } from 'web-vitals/onCLS.js';
export { onINP } from 'web-vitals/onINP.js';
export { onLCP } from 'web-vitals/onLCP.js';
export { querySimilarity } from '../shared/similarity.ts';
export { Recorder } from './pipeline/recorder.ts';
export { renderPanel } from './ui/panel.ts';
export { POPOVER_STRINGS } from './ui/popover-strings.ts';
export { renderPrompt } from './ui/prompt.ts';
