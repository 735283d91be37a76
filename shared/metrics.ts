/**
 * A trace's score: the mean value of its live (not superseded) scored signals, as in the
 * seed's worst-traces query (`avg(signal_value)`); null when nothing scored it yet.
 */
export function traceScore(values: readonly (number | null)[]): number | null {
  const scored = values.filter((v): v is number => v !== null);
  return scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null;
}
