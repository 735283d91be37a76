/**
 * The widget is a guest on someone else's page: it never throws into it and stays silent unless
 * the host turns on debug output. Every callback the browser calls goes through `safely`.
 */
let debug = false;

export const setDebug = (on: boolean) => {
  debug = on;
};

/** Logs only when debug is on. */
export function warn(...args: unknown[]): void {
  if (debug) console.warn('[rag-feedback]', ...args);
}

/** Runs `fn`, swallowing (and, in debug, logging) anything it throws or rejects with. */
export function safely<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => void {
  return (...args: A) => {
    try {
      const result = fn(...args);
      if (result instanceof Promise) result.catch((err) => warn(err));
    } catch (err) {
      warn(err);
    }
  };
}
