import type { Locale } from '../../i18n/strings.ts';

const UNITS: [number, string][] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/** The largest unit that `ms` is at least one of. */
const unitOf = (ms: number) => UNITS.find(([size]) => Math.abs(ms) >= size) ?? [1, 'millisecond'];

const inUnit = (ms: number, [size, unit]: [number, string], locale: Locale) =>
  new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: size === 1 ? 0 : 1 }).format(ms / size);

/** A duration in the largest unit that keeps it readable, in the reader's language: 850 ms, 12 sec, 4.5 min, 3.2 hr, 1.5 days. */
export const duration = (ms: number, locale: Locale): string => inUnit(ms, unitOf(ms), locale);

/** An axis's durations in one unit, the one its longest needs: 0 days, 0.5 days, 1 day, not 0 ms, 12 hr, 1 day. */
export function durations(ms: number[], locale: Locale): string[] {
  const unit = unitOf(Math.max(0, ...ms.map(Math.abs)));
  return ms.map((x) => inUnit(x, unit, locale));
}
