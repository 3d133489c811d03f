// Minimal leveled logger to stderr/stdout; enough for a single-process server and quiet in tests.
import type { LogLevel } from './config';

export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string): void;
  debug(message: string): void;
}

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export function createLogger(level: LogLevel): Logger {
  const on = (l: LogLevel) => RANK[level] >= RANK[l];
  return {
    error: (message, error) => {
      if (on('error')) console.error(`[hermes] ${message}`, ...(error === undefined ? [] : [error]));
    },
    info: (message) => {
      if (on('info')) console.log(`[hermes] ${message}`);
    },
    debug: (message) => {
      if (on('debug')) console.log(`[hermes] ${message}`);
    },
  };
}
