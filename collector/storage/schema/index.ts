/**
 * The D1 schema, one file per concern: `projects` (tenants, their origins, keys and widget
 * config) `ingest` (what the write endpoints store), the nightly loop's tables, and the model `registry`. drizzle-kit reads this index to generate
 * the migrations in collector/migrations (`npm run db:generate`).
 */

export * from './archive.ts';
export * from './dead-letters.ts';
export * from './erased-traces.ts';
export * from './evals.ts';
export * from './ingest.ts';
export * from './loop.ts';
export * from './projects.ts';
export * from './registry.ts';
export * from './review.ts';
