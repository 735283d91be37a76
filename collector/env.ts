import type { AuthenticatedKey } from './auth/keys.ts';

/**
 * The Worker's bindings as wrangler.toml declares them (`Cloudflare.Env`, generated into
 * worker-configuration.d.ts by `npm run cf-typegen`), and the settings it reads from `[vars]`,
 * `.dev.vars` or `--var`, which are optional because the code has their defaults.
 */
export interface Env extends Omit<Cloudflare.Env, 'ARCHIVE'> {
  /** The raw rows' archive (R2). Optional: a deployment without R2 purges raw rows unarchived (jobs/stages/archive.ts). */
  ARCHIVE?: R2Bucket;
  /** Rate limits, "events or requests per minute"; see collector/middleware/rate-limit.ts. */
  RATE_LIMIT_KEY_PER_MIN?: string;
  RATE_LIMIT_SESSION_PER_MIN?: string;
  RATE_LIMIT_IP_PER_MIN?: string;
  /** D1 queries one invocation of the nightly job may run (Cloudflare's limit per invocation; see jobs/nightly.ts). */
  NIGHTLY_QUERY_BUDGET?: string;
  /** Keys the hash of a client address (a secret: `wrangler secret put ADDRESS_HASH_SECRET`); see routes/v1/client-address.ts. */
  ADDRESS_HASH_SECRET?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** The authenticated key's project and kind, set by `requireKey`. */
    auth: AuthenticatedKey;
    /** The key presented and its hash, set by whichever of the IP limit and `requireKey` hashes it first. */
    hashedKey: { key: string; hash: string } | undefined;
    /** The request body as parsed JSON, not yet validated, set by `jsonBody`. */
    body: unknown;
    /** Sessions of a batch over their rate limit while others were not, with the seconds each should wait; set by `writeRateLimit`. */
    sessionsOverLimit: ReadonlyMap<string, number> | undefined;
  };
}

/** What the handlers after `validBody` see besides AppEnv: the body as its schema's output. */
export interface WithInput<T> {
  Variables: { input: T };
}
