// Which database engine this process runs on, decided once at start: PostgreSQL when DATABASE_URL is a postgres://
// (or postgresql://) URL, else the embedded SQLite file. Everything that differs by engine keys off this.
export type TEngine = "sqlite" | "pg";

export const isPostgresUrl = (url: string | undefined): url is string =>
  Boolean(url && /^postgres(ql)?:\/\//.test(url));

export const ENGINE: TEngine = isPostgresUrl(process.env.DATABASE_URL) ? "pg" : "sqlite";

/** Where this process's data lives, for logs and the CLI: the PostgreSQL URL without its password, or the file. */
export const databaseLabel = (sqlitePath: string) => {
  if (ENGINE !== "pg") return sqlitePath;
  const u = new URL(process.env.DATABASE_URL!);
  if (u.password) u.password = "***";
  return u.toString();
};
