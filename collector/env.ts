/** Bindings and settings of the collector Worker (wrangler.toml, `.dev.vars`, or `--var`). */
export interface Env {
  /** The D1 database: projects, keys, traces, events, configs. */
  DB: D1Database;
  /** Rate limits, "events or requests per minute"; see collector/middleware/rate-limit.ts. */
  RATE_LIMIT_KEY_PER_MIN?: string;
  RATE_LIMIT_SESSION_PER_MIN?: string;
  RATE_LIMIT_IP_PER_MIN?: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** The authenticated key's project and kind, set by `requireKey`. */
    auth: import('./auth/keys.ts').AuthenticatedKey;
  };
};
