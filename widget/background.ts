// Everything the first render does not need, fetched as one chunk as soon as the widget runs:
// the recorder (outbox, transport, redaction), web vitals, query similarity, and the popover,
// correction form and prompts (their styles come with the element's).

export { onCLS, onINP, onLCP } from 'web-vitals';
export { querySimilarity } from '../shared/similarity.ts';
export { Recorder } from './pipeline/recorder.ts';
export { renderPanel } from './ui/panel.ts';
export { renderPrompt } from './ui/prompt.ts';
