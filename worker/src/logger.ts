export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  with(fields: Record<string, unknown>): Logger;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One JSON object per line; Workers observability indexes the fields. */
export function createLogger(base: Record<string, unknown> = {}, level: LogLevel = "info"): Logger {
  const write = (at: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level: at,
      message,
      ...base,
      ...fields,
    });
    if (at === "error") console.error(line);
    else if (at === "warn") console.warn(line);
    else console.log(line);
  };
  return {
    debug: (message, fields) => write("debug", message, fields),
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
    with: (fields) => createLogger({ ...base, ...fields }, level),
  };
}

/** What an unknown error may contribute to a log line (never to a response). */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return {
      errorName: error.name,
      errorMessage: error.message,
      stack: error.stack,
      ...(error.cause !== undefined ? { cause: describeError(error.cause) } : {}),
    };
  }
  return { error: String(error) };
}
