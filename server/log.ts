// Minimal leveled logger to stderr/stdout; enough for a single-process server and quiet in tests.
//
// An error is logged as `errorSummary` reduces it, never as the object itself: a failed query's error
// carries its parameters (titles, contents, e-mails, phones of guardians) in `message` and `params`, the
// database echoes the failing row in `detail`, and mail and provider errors quote addresses in theirs. The
// log keeps what finds the fault without the people: the route and ids the caller names in `message`, and
// each error's class, codes, table or constraint, and where it was thrown.
import type { LogLevel } from './config';

export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string): void;
  debug(message: string): void;
}

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

/** Fields that name a fault, not a person: SQLSTATE and what it hit, system and SMTP codes, HTTP statuses. */
const SAFE_FIELDS = ['code', 'errno', 'syscall', 'responseCode', 'command', 'status', 'table', 'column', 'constraint', 'routine'] as const;
/** Identifiers and codes only: an address or a phone (`@`, `+`) or a sentence never passes. */
const SAFE_VALUE = /^[\w .:-]{1,64}$/;
const MAX_CAUSES = 4;
const MAX_FRAMES = 6;

/** The error's class; PGlite's is minified, so a database error (it has a severity) is named as one. */
function className(error: object): string {
  if ('severity' in error && 'code' in error) return 'DatabaseError';
  const name = error.constructor?.name ?? '';
  return name.length > 2 && name !== 'Object' ? name : 'Error';
}

function describeOne(error: object): string {
  const name = className(error);
  const fields = SAFE_FIELDS.flatMap((key) => {
    const value = (error as Record<string, unknown>)[key];
    const shown = typeof value === 'number' ? String(value) : typeof value === 'string' && SAFE_VALUE.test(value) ? value : null;
    return shown === null ? [] : [`${key}=${shown}`];
  });
  return fields.length > 0 ? `${name} (${fields.join(' ')})` : name;
}

/**
 * An error as the log may keep it: its class and safe fields, those of its causes, and the first stack
 * frames (file and line, from the stack's `at` lines only: its first lines repeat the message). Never the
 * message, `detail`, `query` or `params`.
 */
function errorSummary(error: unknown): string {
  if (typeof error !== 'object' || error === null) return typeof error;
  const chain: string[] = [];
  for (let e: unknown = error; typeof e === 'object' && e !== null && chain.length <= MAX_CAUSES; e = (e as { cause?: unknown }).cause) {
    chain.push(describeOne(e));
  }
  const stack = (error as { stack?: unknown }).stack;
  const frames =
    typeof stack === 'string'
      ? stack
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .slice(0, MAX_FRAMES)
      : [];
  return [chain.join(' ← '), ...frames].join('\n');
}

export function createLogger(level: LogLevel): Logger {
  const on = (l: LogLevel) => RANK[level] >= RANK[l];
  return {
    error: (message, error) => {
      if (on('error')) console.error(`[hermes] ${message}${error === undefined ? '' : `: ${errorSummary(error)}`}`);
    },
    info: (message) => {
      if (on('info')) console.log(`[hermes] ${message}`);
    },
    debug: (message) => {
      if (on('debug')) console.log(`[hermes] ${message}`);
    },
  };
}
