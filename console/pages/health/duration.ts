import type { Locale } from '../../i18n/strings.ts';

/** A duration in the largest unit that keeps it readable: 850 ms, 12 s, 4.5 min, 3.2 h, 1.5 d. */
export function duration(ms: number, locale: Locale): string {
  const steps: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [size, unit] of steps) if (ms >= size) return `${(ms / size).toLocaleString(locale, { maximumFractionDigits: 1 })} ${unit}`;
  return `${Math.round(ms).toLocaleString(locale)} ms`;
}
