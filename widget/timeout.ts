import { MAX_TIMER_MS } from './defaults.ts';

/**
 * A signal that aborts a request after `ms` (a finite number, not negative): none for 0, and none
 * where browsers cannot set one (Safari before 16). A wait longer than a browser timer holds is
 * none too: `AbortSignal.timeout` throws for some such values (1e300), or fires at once.
 */
export const timeoutSignal = (ms: number): AbortSignal | undefined => (ms > 0 && ms < MAX_TIMER_MS ? AbortSignal.timeout?.(ms) : undefined);
