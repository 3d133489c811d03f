// SCAFFOLD (issue 5, in progress): the built-in SMS / WhatsApp provider simulator. Replaced by its real body.
import { Hono } from 'hono';
import type { Db } from '../db/client';

export interface ProviderSimulatorOptions {
  db: Db;
  /** Bearer token the simulator expects (the adapter sends it). */
  token: string;
  /** Share of messages reported not delivered (0–1). */
  failureRate: number;
  /** Delay between accepting and reporting. */
  delayMs: number;
  /** Secret the status reports are signed with (HMAC-SHA256, header X-Hermes-Signature: sha256=<hex>). */
  webhookSecret: string;
  /** Posts a status report to its callback URL (the server passes its own in-process fetch). */
  deliver: (request: Request) => Promise<Response>;
  random?: () => number;
}

export interface ProviderSimulator {
  /** The provider's JSON API, mounted by the app at /sim/provider. */
  routes: Hono;
  /** Calls `routes` in-process (what the default adapters use as their `fetch`). */
  fetch(request: Request): Promise<Response>;
  setFailureRate(rate: number): void;
  /** Sends the reports still owed (after a restart); the server calls it once at start. */
  resumeReports(): Promise<void>;
  close(): Promise<void>;
}

export function createProviderSimulator(_options: ProviderSimulatorOptions): ProviderSimulator {
  const routes = new Hono();
  return {
    routes,
    fetch: async (request) => routes.fetch(request),
    setFailureRate: () => {},
    resumeReports: async () => {},
    close: async () => {},
  };
}
