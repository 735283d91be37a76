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
      if (result instanceof Promise) result.catch(warn);
    } catch (err) {
      warn(err);
    }
  };
}

/**
 * Wraps every method of a class so that nothing they throw reaches the caller: the host page
 * calls the public API and the lifecycle callbacks, and clicks call them from templates. One
 * place for the rule, instead of a try in each method.
 */
export function guardMethods(proto: object): void {
  const methods = proto as Record<string, unknown>;
  for (const [name, { value: method }] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
    if (name === 'constructor' || typeof method !== 'function') continue;
    // Assigned over a method, the wrapper keeps its attributes (not enumerable, like every method's).
    methods[name] = function (this: unknown, ...args: unknown[]) {
      try {
        const result = method.apply(this, args);
        return result instanceof Promise ? result.catch(warn) : result;
      } catch (err) {
        warn(err);
        return undefined;
      }
    };
  }
}
