// The operators' command line run as an operator runs it: its own process, only PATH, a Spanish locale and
// what the test gives it in the environment (the database, the outbox).
import { execFile } from 'node:child_process';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', ...args],
      { env: { PATH: process.env.PATH ?? '', LANG: 'es_CL.UTF-8', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}
