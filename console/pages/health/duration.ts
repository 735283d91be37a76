import type { Locale } from '../../i18n/strings.ts';

/** A duration in the largest unit that keeps it readable, in the reader's language: 850 ms, 12 sec, 4.5 min, 3.2 hr, 1.5 days. */
export function duration(ms: number, locale: Locale): string {
  const steps: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  const [size, unit] = steps.find(([size]) => ms >= size) ?? [1, 'millisecond'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: size === 1 ? 0 : 1 }).format(ms / size);
}
