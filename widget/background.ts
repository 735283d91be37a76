// Everything that works in the background after first render, fetched as one chunk as soon as
// the widget runs: the recorder (outbox, transport, redaction), web vitals and query similarity.
export { Recorder } from './pipeline/recorder.ts';
export { onCLS, onINP, onLCP } from 'web-vitals';
export { querySimilarity } from '../shared/similarity.ts';
