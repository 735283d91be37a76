import type { Locale } from '../../i18n/strings.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: [number, string][] = [
  [DAY, 'day'],
  [HOUR, 'hour'],
  [MINUTE, 'minute'],
  [SECOND, 'second'],
];

/** Steps a duration axis ticks by: whole numbers of one unit each, so its labels are exact. */
export const DURATION_STEPS = [
  ...[1, 2, 5, 10, 20, 50, 100, 200, 500],
  ...[1, 2, 5, 10, 15, 30].map((n) => n * SECOND),
  ...[1, 2, 5, 10, 15, 30].map((n) => n * MINUTE),
  ...[1, 2, 3, 6, 12].map((n) => n * HOUR),
  ...[1, 2, 3, 7, 14, 30, 60, 90, 180, 365].map((n) => n * DAY),
];

/** The largest unit that `ms` is at least one of. */
const unitOf = (ms: number) => UNITS.find(([size]) => Math.abs(ms) >= size) ?? [1, 'millisecond'];

const inUnit = (ms: number, [size, unit]: [number, string], locale: Locale) =>
  new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: size === 1 ? 0 : 1 }).format(ms / size);

/** A duration in the largest unit that keeps it readable, in the reader's language: 850 ms, 12 sec, 4.5 min, 3.2 hr, 1.5 days. */
export const duration = (ms: number, locale: Locale): string => inUnit(ms, unitOf(ms), locale);

/**
 * An axis's ticks in one unit, the one its step is a whole number of: 0, 12, 24, 36 hr rather
 * than 0 ms, 12 hr, 1 day, 1.5 days. A lone tick takes its own unit.
 */
export function durations(ticks: number[], locale: Locale): string[] {
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : Math.abs(ticks[0] ?? 0);
  const unit = unitOf(step);
  return ticks.map((t) => inUnit(t, unit, locale));
}
