// drizzle-kit for the PostgreSQL schema: `bun run db:generate:pg` writes db/pg/migrations (db/pg/schema.ts is the
// PostgreSQL twin of db/schema.ts; drizzle.config.ts serves SQLite).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/pg/schema.ts",
  out: "./db/pg/migrations",
  casing: "snake_case",
});
