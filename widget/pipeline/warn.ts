/** Where the pipeline reports what it could not do: silent on the host page unless `debug` is set. */
export type Warn = (...args: unknown[]) => void;
