// Which database engine this process runs on, decided once at start: PostgreSQL when DATABASE_URL is a postgres://
// (or postgresql://) URL, else the embedded SQLite file. Everything that differs by engine keys off this.
export type TEngine = "sqlite" | "pg";

export const isPostgresUrl = (url: string | undefined): url is string =>
  Boolean(url && /^postgres(ql)?:\/\//.test(url));

export const ENGINE: TEngine = isPostgresUrl(process.env.DATABASE_URL) ? "pg" : "sqlite";
