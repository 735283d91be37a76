import { applyD1Migrations, env } from 'cloudflare:test';

// Storage persists across test files in this pool version: migrations are idempotent, and
// every test makes its own project, so no test depends on an empty database.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
