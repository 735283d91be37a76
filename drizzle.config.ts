import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './collector/storage/schema/index.ts',
  out: './collector/migrations',
});
