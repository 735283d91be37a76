/**
 * A log that says the same message at most once a minute: a collector that is down fails every
 * answer's model check alike, and a line per answer would bury everything else the demo says.
 */
export const REPEAT_MUTED_MS = 60_000;
/** Messages remembered at most (the latest said), so a long outage's distinct messages do not pile up. */
const REMEMBERED = 100;

export function mutingRepeats(log: (message: string) => void, now: () => number = Date.now): (message: string) => void {
  const lastSaid = new Map<string, number>();
  return (message) => {
    const at = now();
    const last = lastSaid.get(message);
    if (last !== undefined && at - last < REPEAT_MUTED_MS) return;
    lastSaid.delete(message);
    lastSaid.set(message, at);
    if (lastSaid.size > REMEMBERED) lastSaid.delete(lastSaid.keys().next().value!);
    log(message);
  };
}
