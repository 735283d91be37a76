import type { DeadLetter } from '../../api/types.ts';

/** Events shown of one message, and characters of each one's detail: a glance at what it holds, not all of it. */
export const PREVIEW_EVENTS = 3;
export const PREVIEW_DETAIL_CHARS = 80;

/** `text` cut to `max` characters (code points: an emoji is never split), marked when cut. */
const cut = (text: string, max: number) => {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
};

/**
 * A dead letter's first events, one line each (signal, trace, detail as JSON, cut short), and how
 * many more it holds. Plain text: the page renders it as text, whatever a user typed into a detail.
 * The rows are read as queued, so a field may be missing or null (one that could not be written).
 */
export function previewOf(message: DeadLetter['message']): { lines: string[]; more: number } {
  const lines = message.rows.slice(0, PREVIEW_EVENTS).map((row) => {
    const detail =
      row.detail && typeof row.detail === 'object' && Object.keys(row.detail).length ? ` ${cut(JSON.stringify(row.detail), PREVIEW_DETAIL_CHARS)}` : '';
    return `${String(row.signalType ?? '?')} · ${String(row.traceId ?? '–')}${detail}`;
  });
  return { lines, more: Math.max(0, message.rows.length - PREVIEW_EVENTS) };
}
