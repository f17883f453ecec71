export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  readonly namespace: string;
  readonly level: LogLevel;
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export type LogSink = (level: Exclude<LogLevel, "silent">, line: string, details: unknown[]) => void;

const consoleSink: LogSink = (level, line, details) => {
  console[level](line, ...details);
};

export function createLogger(
  namespace = "app",
  level: LogLevel = "warn",
  sink: LogSink = consoleSink,
): Logger {
  const emit =
    (at: Exclude<LogLevel, "silent">) =>
    (message: string, ...details: unknown[]) => {
      if (order[at] >= order[level]) sink(at, `[${namespace}] ${message}`, details);
    };
  return {
    namespace,
    level,
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
  };
}

export const logger = createLogger();
