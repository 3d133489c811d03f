// A second Hermes server for the specs that need real providers: SMS through the fake Twilio and WhatsApp
// through the fake Meta Graph API (tests/fixtures), both in this process so a spec drives their callbacks
// and families' messages directly. The shared e2e server keeps the simulator: other specs count on its
// failure rate. The server is tests/e2e/serve.sh on a free port, so it gets the same fresh data dir,
// removed when it stops.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FakeMeta, startFakeMeta } from '../../fixtures/meta-graph';
import { type FakeTwilio, startFakeTwilio } from '../../fixtures/twilio';
import { E2E_HOST } from './server';

export interface ProvidersServer {
  /** The second server's origin: the browser context's baseURL, and HERMES_PUBLIC_URL. */
  url: string;
  twilio: FakeTwilio;
  meta: FakeMeta;
  /** Hermes's SMS incoming webhook, where the fake Twilio posts families' SMS. */
  smsIncomingUrl: string;
  /** Stops the server (its data dir goes with it) and both fakes; safe to call twice or after a failed start. */
  stop(): Promise<void>;
}

const TWILIO_SMS_FROM = '+15005550006';
const META_VERIFY_TOKEN = 'verificacion-e2e-proveedores';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** A port nothing listens on now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, E2E_HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** serve.sh's pointer to its data dir, by port. */
const pointerFile = (port: number) => path.join(process.env.TMPDIR ?? tmpdir(), `hermes-e2e-${port}.datadir`);

export async function startProvidersServer(): Promise<ProvidersServer> {
  const port = await freePort();
  const url = `http://${E2E_HOST}:${port}`;
  const twilio = await startFakeTwilio();
  const meta = await startFakeMeta({ webhookUrl: `${url}/api/webhooks/meta/whatsapp` }).catch(async (error: unknown) => {
    // Nothing else holds the Twilio fake yet: close it, or it outlives the run.
    await twilio.close();
    throw error;
  });
  let child: ChildProcess | null = null;
  let dataDir: string | null = null;
  const stderr: string[] = [];

  async function stop(): Promise<void> {
    if (child) {
      const running = child;
      child = null;
      if (running.exitCode === null && running.signalCode === null) {
        // serve.sh forwards SIGTERM to the server, waits for PGlite to close, then deletes the data dir.
        running.kill('SIGTERM');
        const timer = setTimeout(() => running.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited(running);
        clearTimeout(timer);
      }
    }
    if (dataDir && existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
    rmSync(pointerFile(port), { force: true });
    await Promise.allSettled([twilio.close(), meta.close()]);
  }

  try {
    const started = spawn('bash', ['tests/e2e/serve.sh'], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        ...process.env,
        PORT: String(port),
        HOST: E2E_HOST,
        HERMES_PUBLIC_URL: url,
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_SMS_FROM,
        TWILIO_API_URL: twilio.url,
        WHATSAPP_PROVIDER: 'meta',
        META_WHATSAPP_TOKEN: meta.token,
        META_WHATSAPP_PHONE_NUMBER_ID: meta.phoneNumberId,
        META_APP_SECRET: meta.appSecret,
        META_WEBHOOK_VERIFY_TOKEN: META_VERIFY_TOKEN,
        META_GRAPH_URL: meta.url,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = started;
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk.toString('utf8'));
      if (stderr.length > 50) stderr.shift();
    });
    await waitForHealth(url, started, stderr);
    dataDir = readFileSync(pointerFile(port), 'utf8').trim();
  } catch (error) {
    await stop();
    throw error;
  }

  return { url, twilio, meta, smsIncomingUrl: `${url}/api/webhooks/twilio/sms/incoming`, stop };
}

async function waitForHealth(url: string, child: ChildProcess, stderr: string[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The providers' Hermes server stopped before it was ready:\n${stderr.join('')}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The providers' Hermes server did not answer /api/health within ${READY_TIMEOUT_MS} ms:\n${stderr.join('')}`);
}
