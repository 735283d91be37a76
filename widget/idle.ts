import { IDLE_TIMEOUT_MS } from './defaults.ts';

/** Runs `fn` when the browser is idle (or soon, where requestIdleCallback is missing). */
export const whenIdle = (fn: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(fn, 1);
};
