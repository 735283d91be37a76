import { describe, expect, it } from 'vitest';
import { toHex } from './hex.ts';
import { utcDay } from './time.ts';
import { joinUrl, withoutCredentials } from './url.ts';

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

  it('leaves out the user name and password of an address shown in an error, a password holding an @ too', () => {
    expect(withoutCredentials('https://feedback:s3cret@feedback.example.com\n')).toBe('https://feedback.example.com\n');
    expect(withoutCredentials('https://u:p@ss@host.example/v1\n')).toBe('https://host.example/v1\n');
    expect(withoutCredentials('https://host.example/a@b')).toBe('https://host.example/a@b');
    expect(withoutCredentials('https://host.example is down, mail me@x')).toBe('https://host.example is down, mail me@x');
  });
});
