import { describe, expect, it } from 'vitest';
import { toHex } from './hex.ts';
import { utcDay } from './time.ts';
import { joinUrl } from './url.ts';

describe('small shared helpers', () => {
  it('joins a base and a path with one slash, keeping a base path', () => {
    expect(joinUrl('https://f.example.com', 'v1/events')).toBe('https://f.example.com/v1/events');
    expect(joinUrl('https://f.example.com//', '/v1/events')).toBe('https://f.example.com/v1/events');
    expect(joinUrl('https://example.com/feedback/', 'v1/traces')).toBe('https://example.com/feedback/v1/traces');
  });

  it('spells bytes as two lower-case hex digits each', () => {
    expect(toHex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
  });

  it('names the UTC day of a time', () => {
    expect(utcDay(Date.UTC(2026, 10, 30, 23, 59, 59))).toBe('2026-11-30');
    expect(utcDay(Date.UTC(2026, 11, 1, 0, 0, 0))).toBe('2026-12-01');
  });
});
