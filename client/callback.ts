/**
 * Calls a backend's callback (`onError`), which must never fail what called it: what it throws is
 * ignored, and so is the rejection of an async one, which would otherwise go unhandled and, in
 * Node, end the process.
 */
export function callSafely<T>(callback: ((value: T) => unknown) | undefined, value: T): void {
  try {
    const returned = callback?.(value);
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') {
      (returned as PromiseLike<unknown>).then(undefined, () => undefined);
    }
  } catch {
    // Ignored, as documented.
  }
}
