export type TLogger = {
  info: (msg: string, data?: Record<string, unknown>) => void;
  warn: (msg: string, data?: Record<string, unknown>) => void;
  error: (msg: string, data?: Record<string, unknown>) => void;
};

const write = (level: string, msg: string, data?: Record<string, unknown>) => {
  // LOG_LEVEL (checked with the rest of the configuration) is read at each line, so the CLI and tests can silence the
  // log before anything writes to it.
  if (process.env.LOG_LEVEL === "silent") return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...data });
  if (level === "error") console.error(line);
  else console.log(line);
};

export const logger: TLogger = {
  info: (msg, data) => write("info", msg, data),
  warn: (msg, data) => write("warn", msg, data),
  error: (msg, data) => write("error", msg, data),
};
