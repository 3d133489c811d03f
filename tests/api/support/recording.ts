// A real server on a private copy of the seeded database whose delivery engine only records what the
// routes ask of it: nothing is handed to a channel, so a test moves deliveries the way the engine would
// (UPDATEs for the hand-over, applyReports for receipts) and checks what was queued.
import type { Adapters, ChannelAdapter } from '../../../server/delivery/channel';
import type { DeliveryEngine } from '../../../server/delivery/engine-contract';
import type { DeliveryReport, ReportStatus } from '../../../server/reception/status';
import { createApp } from '../../../server/app';
import type { Db } from '../../../server/db/client';
import { listen, makeDist, openSeededCopy, testConfig } from './server';

export interface EngineCalls {
  /** Messages sent (their fan-out). */
  sent: number[];
  /** Each `deliveriesQueued` call: the rounds handed over after a retry's commit. */
  queued: { id: number; generation: number }[][];
}

const unused: ChannelAdapter = { send: async () => ({ ok: false, kind: 'permanent', error: 'rejected' }) };
const adapters: Adapters = { 'app-mobile': unused, 'e-mail': unused, sms: unused, whatsapp: unused };

export async function startRecordingServer(): Promise<{ url: string; db: Db; calls: EngineCalls; close(): Promise<void> }> {
  const calls: EngineCalls = { sent: [], queued: [] };
  const engine: DeliveryEngine = {
    messageSent: async (id) => void calls.sent.push(id),
    messageScheduled: async () => {},
    deliveriesQueued: async (rounds) => void calls.queued.push(rounds),
  };
  const copy = await openSeededCopy();
  const app = createApp({
    db: copy.handle.db,
    distDir: makeDist(copy.root),
    config: testConfig({ attachmentsDir: copy.attachmentsDir, outboxDir: `${copy.root}/outbox` }),
    delivery: { engine, adapters, simulator: null },
  });
  const server = await listen(app);
  return {
    url: server.url,
    db: copy.handle.db,
    calls,
    close: async () => {
      await server.close();
      await copy.dispose();
    },
  };
}

/** A receipt of one delivery, now. */
export const receipt = (delivery: { id: number }, status: ReportStatus, error: string | null = null): DeliveryReport => ({
  deliveryId: Number(delivery.id),
  status,
  at: new Date(),
  error,
});
