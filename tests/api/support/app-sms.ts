// The guardian app's routes without the delivery engine: an SMS adapter that keeps what it "sends" (the
// sign-in codes are read from it) and idle other channels, for createApp's `delivery`.
import path from 'node:path';
import { createApp } from '../../../server/app';
import type { Db } from '../../../server/db/client';
import type { Adapters, ChannelAdapter, Outgoing } from '../../../server/delivery/channel';
import type { DeliveryEngine } from '../../../server/delivery/engine-contract';
import { listen, makeDist, openSeededCopy, testConfig } from './server';

export function capturedSms(): { sent: Outgoing[]; delivery: { engine: DeliveryEngine; adapters: Adapters; simulator: null } } {
  const sent: Outgoing[] = [];
  const capture: ChannelAdapter = {
    // Records synchronously (before any await), so the message is there once the 202 arrives.
    send: async (message) => {
      sent.push(message);
      return { ok: true, status: 'sent' };
    },
  };
  const idle: ChannelAdapter = { send: async () => ({ ok: false, kind: 'permanent', error: 'not_in_test' }) };
  const engine: DeliveryEngine = { messageSent: async () => {}, messageScheduled: async () => {}, deliveriesQueued: async () => {} };
  return { sent, delivery: { engine, adapters: { sms: capture, 'app-mobile': idle, 'e-mail': idle, whatsapp: idle }, simulator: null } };
}

/** The 6-digit code of the latest SMS sent to `phone` after the first `from` messages. */
export function codeSentTo(sent: Outgoing[], phone: string, from = 0): string {
  const message = sent.slice(from).findLast((m) => m.address === phone);
  if (!message) throw new Error(`no SMS to ${phone}`);
  return /\b(\d{6})\b/.exec(message.text)![1]!;
}

/** A copy of the seeded database served with `delivery` (capturedSms's): the guardian app's suites' server. */
export async function serveWithCapturedSms(
  delivery: ReturnType<typeof capturedSms>['delivery'],
): Promise<{ db: Db; url: string; close: () => Promise<void> }> {
  const copy = await openSeededCopy();
  const db = copy.handle.db;
  const app = createApp({
    db,
    distDir: makeDist(copy.root),
    config: testConfig({ attachmentsDir: copy.attachmentsDir, outboxDir: path.join(copy.root, 'outbox') }),
    delivery,
  });
  const server = await listen(app);
  return {
    db,
    url: server.url,
    close: async () => {
      await server.close();
      await copy.dispose();
    },
  };
}
