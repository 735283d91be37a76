import { describe, expect, it } from 'vitest';
import { PREVIEW_DETAIL_CHARS, PREVIEW_EVENTS, previewOf } from './dead-letter-preview.ts';

const row = (i: number, detail: Record<string, unknown> = {}) => ({ eventId: `e${i}`, traceId: `t-${i}`, signalType: 'thumbs_down', detail });

describe('previewOf', () => {
  it('shows the first events as signal, trace and detail, and counts the rest', () => {
    const rows = [row(1, { reason: 'incorrect' }), row(2), { ...row(3), traceId: null }, row(4), row(5)];
    expect(previewOf({ rows, dropped: 2 })).toEqual({
      lines: ['thumbs_down · t-1 {"reason":"incorrect"}', 'thumbs_down · t-2', 'thumbs_down · –'],
      more: 5 - PREVIEW_EVENTS,
    });
    expect(previewOf({ rows: [] })).toEqual({ lines: [], more: 0 });
  });

  it('cuts a long detail short, never inside a character', () => {
    const comment = `${'x'.repeat(PREVIEW_DETAIL_CHARS - 15)}😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀`;
    const [line] = previewOf({ rows: [row(1, { comment })] }).lines;
    const detail = Array.from(line!.slice('thumbs_down · t-1 '.length));
    expect(detail).toHaveLength(PREVIEW_DETAIL_CHARS);
    expect(detail.at(-1)).toBe('…');
    expect(detail.at(-2)).toBe('😀');
  });
});
