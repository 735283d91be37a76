/** Loads something once for every caller; what it loaded is also at hand synchronously. */
export interface Loader<T> {
  (): Promise<T>;
  /** The loaded value once it is there, for code that cannot wait (a render). */
  value?: T;
}

/**
 * Shares one load among all callers, and forgets a failed one (a chunk fetched while offline)
 * so that the next call tries again instead of failing for good.
 */
export function retrying<T>(load: () => Promise<T>): Loader<T> {
  let loading: Promise<T> | undefined;
  const loader: Loader<T> = () =>
    (loading ??= load().then(
      (value) => (loader.value = value),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  return loader;
}
