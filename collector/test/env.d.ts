// Bindings the tests see through `cloudflare:test` / `cloudflare:workers` (see collector/env.ts).
declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
  interface Exports {
    default: Fetcher;
  }
}
