// What the tests see through `cloudflare:test` / `cloudflare:workers` beyond the Worker's own
// bindings (collector/worker-configuration.d.ts): the migrations vitest.config.ts binds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
