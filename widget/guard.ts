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

/**
 * `fn` (a function or a method: `this` passes through) returning what it returns, but nothing it
 * throws or rejects with: that is swallowed and, in debug, logged. Callers get undefined instead.
 */
export function safely<T, A extends unknown[], R>(fn: (this: T, ...args: A) => R): (this: T, ...args: A) => R | undefined {
  return function (...args) {
    try {
      const result = fn.apply(this, args);
      return (result instanceof Promise ? result.catch(warn) : result) as R;
    } catch (err) {
      warn(err);
      return undefined;
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
    // Assigned over a method, the wrapper keeps its attributes (not enumerable, like every method's).
    if (name !== 'constructor' && typeof method === 'function') methods[name] = safely(method);
  }
}
