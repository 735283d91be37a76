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

/**
 * Wraps methods so that nothing they throw reaches the caller: the host page calls the public
 * API, and clicks call it from templates. One place for the rule, instead of a try in each.
 */
export function guardMethods<T extends object>(proto: T, names: readonly (keyof T & string)[]): void {
  for (const name of names) {
    const method = proto[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value(this: unknown, ...args: unknown[]) {
        try {
          return method.apply(this, args);
        } catch (err) {
          warn(err);
          return undefined;
        }
      },
    });
  }
}
