/** Runs `fn` when the browser is idle (or soon, where requestIdleCallback is missing). */
export const whenIdle = (fn: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 2_000 });
  else setTimeout(fn, 1);
};
