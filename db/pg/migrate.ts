// Applies db/pg/migrations (drizzle-kit's output for db/pg/schema.ts) to the PostgreSQL database at `url`, through
// Bun's built-in client. Not wired into the app yet: the domain runs on SQLite's handle (db/client.ts).
import { join } from "node:path";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { migrate } from "drizzle-orm/bun-sql/migrator";
import * as schema from "./schema";

export const PG_MIGRATIONS_FOLDER = join(import.meta.dir, "migrations");

export const openPg = (url: string) => {
  const client = new SQL(url);
  const db = drizzle({ client, schema, casing: "snake_case" });
  return { db, client, close: () => client.close() };
};

export const migratePg = (db: ReturnType<typeof openPg>["db"]) =>
  migrate(db, { migrationsFolder: PG_MIGRATIONS_FOLDER });
