import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './collector/storage/schema.ts',
  out: './collector/migrations',
});
