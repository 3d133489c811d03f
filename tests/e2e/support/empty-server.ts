// A second server for the specs that need an install without any school (`HERMES_DEMO=0`): the real
// server/main.ts on the built app, a fresh temp data dir and a free port, started by the spec that needs it
// (the demo server of playwright.config.ts keeps serving the others, no slower). Its log gives the address
// and the one-time setup code, as an operator reads them.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_HOST } from './server';

export interface EmptyInstall {
  url: string;
  /** The setup code the log printed. */
  code: string;
  /** The e-mails it wrote (no SMTP_URL). */
  outboxDir: string;
  stop(): Promise<void>;
}

const LISTENING = /Hermes escuchando en (http:\/\/\S+)/;
const CODE = /Código de configuración \(se usa una vez\): ([A-Z0-9-]+)/;

export async function startEmptyInstall(): Promise<EmptyInstall> {
  const root = mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), 'hermes-e2e-empty-'));
  const outboxDir = path.join(root, 'outbox');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HERMES_DEMO: '0',
    HERMES_DATA_DIR: path.join(root, 'pglite'),
    HERMES_ATTACHMENTS_DIR: path.join(root, 'attachments'),
    HERMES_OUTBOX_DIR: outboxDir,
    HERMES_LOG: 'info',
    PORT: '0',
    HOST: E2E_HOST,
  };
  // A developer's database or providers must never be used here.
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'SMS_PROVIDER_URL', 'WHATSAPP_PROVIDER_URL', 'VITEST']) delete env[name];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 8_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const found = await new Promise<{ url: string; code: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the empty install did not start in time:\n${log}`)), 60_000);
      const read = (chunk: Buffer) => {
        log += chunk.toString();
        const url = LISTENING.exec(log)?.[1];
        const code = CODE.exec(log)?.[1];
        if (url && code) {
          clearTimeout(timer);
          resolve({ url, code });
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (status) => {
        clearTimeout(timer);
        reject(new Error(`the empty install exited (${status}):\n${log}`));
      });
    });
    return { ...found, outboxDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
