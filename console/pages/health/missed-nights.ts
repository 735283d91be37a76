import type { HealthSnapshot } from '../../api/types.ts';

const DAY_MS = 86_400_000;

/**
 * The snapshots, oldest first, with a night of no figures for each day between them that has none
 * (a missed night): a chart then breaks its lines there, rather than draw one across it as though
 * the loop had run, and the table lists the day.
 */
export function withMissedNights(snaps: readonly HealthSnapshot[]): HealthSnapshot[] {
  const out: HealthSnapshot[] = [];
  for (const snap of snaps) {
    const prev = out.at(-1);
    if (prev) {
      // Days are UTC days (YYYY-MM-DD).
      for (let t = Date.parse(`${prev.day}T00:00:00Z`) + DAY_MS; t < Date.parse(`${snap.day}T00:00:00Z`); t += DAY_MS)
        out.push({ day: new Date(t).toISOString().slice(0, 10), servedModel: null, metrics: {} });
    }
    out.push(snap);
  }
  return out;
}
