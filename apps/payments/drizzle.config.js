// drizzle-kit reads the compiled schema (build first: `nx run payments:db-generate` does).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './dist/src/db/schema.js',
  out: './drizzle',
  schemaFilter: ['payments'],
});
