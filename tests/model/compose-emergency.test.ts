// Compose's "Emergencia" mark and the SMS reserve, through the real compose actor (one scripted
// flow per concern; the machine's model-based paths, `compose.toggleEmergency` among their edits, are
// tests/model/compose.test.ts): the mark's guard `canMarkEmergency`, the form context, the backup, the
// draft, the estimate's input, the reserve-only refusal, and the rules of src/machines/compose/quota-rules.ts.
import { createActor, type AnyEventObject } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComposeInput, Estimate } from '../../shared/compose-contract';
import { canMarkEmergency, percentLeft, reserveNote, reserveOnlyError } from '../../src/machines/compose/quota-rules';
import { smsFree } from '../../shared/quota-rules';
import {
  selectEmergency,
  selectError,
  selectOffersEmergency,
  selectQuotaPercentLeft,
  selectQuotaSmsRemaining,
  selectReserveNote,
  selectSmsLow,
  selectSmsReserved,
} from '../../src/machines/compose/selectors';
import type { ComposeStart } from '../../src/services/compose/compose';
import { loadComposeBackup } from '../../src/services/compose/backup';
import { composeBackup, composeDraft, composeSetup, estimate, quota } from '../fixtures/compose';
import { composeWithRealChildren } from './doubles';
import { Fakes, flush } from './harness';
import { installMemoryStorage } from './memory-storage';

// A localStorage for node: the backup goes through the real service helpers.
const store = installMemoryStorage();
afterEach(() => store.clear());

const KEY = 'compose:7:new';
const GUARDIAN = { kind: 'guardian' as const, id: 5, label: 'José Muñoz Pérez' };
/** 5,000 a month, 4,690 used: 310 left, 500 of the limit kept for emergencies, under the 10 % alert. */
const RESERVE_QUOTA = quota(5000, 4690, { sms: { reserved: 500, low: true } });
/** One SMS to one guardian; the reserve is all that is left. */
const RESERVE_ONLY: Estimate = estimate(1, {
  channels: [{ code: 'sms', deliveries: 1, missing_address: 0, opted_out: 0, blocked: 0 }],
  sms: { segments_per_message: 1, total: 1, remaining: 310, limit: 5000, reserved: 500, month: '2026-03' },
  email: null,
  problems: ['sms.reserve_only_emergency'],
});

async function open(start: Partial<ComposeStart> = {}) {
  const fakes = new Fakes();
  const emitted: AnyEventObject[] = [];
  const actor = createActor(composeWithRealChildren(fakes), { input: { draftId: null, replyToId: null, backupKey: KEY } });
  actor.on('*', (event) => void emitted.push(event));
  actor.start();
  fakes.resolve('loadCompose', {
    setup: composeSetup({ quota: RESERVE_QUOTA }),
    draft: null,
    backup: composeBackup({ title: 'Corte de agua', content: 'Se suspenden las clases.', channels: ['sms'], recipients: [GUARDIAN] }),
    reply: null,
    ...start,
  } satisfies ComposeStart);
  await flush();
  return { actor, fakes, emitted };
}

describe('the "Emergencia" mark in compose', () => {
  it('is offered with SMS, refused without; toggling it is an edit kept in the backup and sent to the estimate', async () => {
    const { actor, fakes, emitted } = await open();
    const snapshot = () => actor.getSnapshot();
    expect(snapshot().value).toEqual({ form: 'editing' });
    expect(selectEmergency(snapshot())).toBe(false);
    expect(selectOffersEmergency(snapshot())).toBe(true);
    expect(snapshot().can({ type: 'compose.toggleEmergency' })).toBe(true);
    // What is left is all reserve: the estimate lines say so before any estimate.
    expect(selectSmsReserved(snapshot())).toBe(500);
    expect(selectReserveNote(snapshot())).toBe('compose.estimate.reserveOnly');

    // Not marked: the estimate refuses it as reserve-only, with the figure and what to do.
    actor.send({ type: 'compose.send' });
    expect(snapshot().matches('estimating')).toBe(true);
    expect((fakes.inputOf('estimate') as { input: ComposeInput }).input.emergency).toBe(false);
    fakes.resolve('estimate', RESERVE_ONLY);
    await flush();
    expect(snapshot().value).toEqual({ form: 'editing' });
    expect(selectError(snapshot(), 'quota')).toEqual({ key: 'compose.errors.smsReserveOnly', params: { count: 310 } });
    expect(emitted).toContainEqual({ type: 'toast', kind: 'error', key: 'compose.errors.smsReserveOnly', params: { count: 310 } });

    // Marked: the refusal and the estimate go (it may be different now), the key too; the backup keeps it.
    actor.send({ type: 'compose.toggleEmergency' });
    expect(selectEmergency(snapshot())).toBe(true);
    expect(selectError(snapshot(), 'quota')).toBeUndefined();
    expect(snapshot().context.estimate).toBeNull();
    expect(snapshot().context.idempotencyKey).toBeNull();
    expect(loadComposeBackup(KEY)?.emergency).toBe(true);
    expect(selectReserveNote(snapshot())).toBe('compose.estimate.reserveEmergency');

    // The same message marked goes to the estimate with the mark, then to the confirmation.
    actor.send({ type: 'compose.send' });
    expect((fakes.inputOf('estimate') as { input: ComposeInput }).input).toMatchObject({ emergency: true, channels: ['sms'] });
    fakes.resolve('estimate', { ...RESERVE_ONLY, problems: [] });
    await flush();
    expect(snapshot().matches('confirming')).toBe(true);
    actor.send({ type: 'compose.cancel' });

    // Off again: the backup says so.
    actor.send({ type: 'compose.toggleEmergency' });
    expect(selectEmergency(snapshot())).toBe(false);
    expect(loadComposeBackup(KEY)?.emergency).toBe(false);
    actor.stop();
  });

  it('is not offered to a school without SMS: `canMarkEmergency` refuses the event', async () => {
    const { actor } = await open({
      setup: composeSetup({ availableChannels: ['app-mobile', 'e-mail'], quota: RESERVE_QUOTA }),
      backup: composeBackup({ channels: ['e-mail'] }),
    });
    expect(selectOffersEmergency(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().can({ type: 'compose.toggleEmergency' })).toBe(false);
    actor.send({ type: 'compose.toggleEmergency' });
    expect(selectEmergency(actor.getSnapshot())).toBe(false);
    expect(loadComposeBackup(KEY)?.emergency).toBeUndefined();
    actor.stop();
  });

  it('a draft marked emergency reopens marked; a backup from before the mark reopens unmarked', async () => {
    const draft = composeDraft(9, { channels: ['sms'], emergency: true, updated_at: '2030-01-01T00:00:00.000Z' });
    const fakes = new Fakes();
    const actor = createActor(composeWithRealChildren(fakes), { input: { draftId: 9, replyToId: null, backupKey: 'compose:7:9' } }).start();
    fakes.resolve('loadCompose', { setup: composeSetup(), draft, backup: null, reply: null } satisfies ComposeStart);
    await flush();
    expect(selectEmergency(actor.getSnapshot())).toBe(true);
    actor.stop();

    const { actor: older } = await open({ backup: composeBackup({ channels: ['sms'] }) });
    expect(older.getSnapshot().context.emergency).toBe(false);
    older.stop();
  });

  it('knows the low-quota alert of GET /quota and the share left', async () => {
    const { actor } = await open();
    expect(selectSmsLow(actor.getSnapshot())).toBe(true);
    expect(selectQuotaSmsRemaining(actor.getSnapshot())).toBe(310);
    expect(selectQuotaPercentLeft(actor.getSnapshot())).toBe(6);
    actor.stop();
    const { actor: plenty } = await open({ setup: composeSetup() });
    expect(selectSmsLow(plenty.getSnapshot())).toBe(false);
    plenty.stop();
  });
});

describe('compose-quota-rules', () => {
  it('says what a message not marked emergency may still use, and why it is refused', () => {
    expect(smsFree(310, 500)).toBe(0);
    expect(smsFree(620, 500)).toBe(120);
    expect(reserveOnlyError(RESERVE_ONLY)).toEqual({ key: 'compose.errors.smsReserveOnly', params: { count: 310 } });
    const short = { ...RESERVE_ONLY, sms: { ...RESERVE_ONLY.sms!, remaining: 620, total: 200 } };
    expect(reserveOnlyError(short)).toEqual({ key: 'compose.errors.smsReserveShort', params: { count: 120, total: 200 } });
    expect(reserveOnlyError(null)).toEqual({ key: 'compose.errors.smsReserveOnlyPlain' });
  });

  it('notes the reserve only when there is one and something is left', () => {
    expect(reserveNote(310, 0, false)).toBeNull();
    expect(reserveNote(0, 500, false)).toBeNull();
    expect(reserveNote(310, 500, false)).toBe('compose.estimate.reserveOnly');
    expect(reserveNote(501, 500, false)).toBe('compose.estimate.reserveKept');
    expect(reserveNote(310, 500, true)).toBe('compose.estimate.reserveEmergency');
  });

  it('offers the mark with SMS, or to take it off', () => {
    const setup = composeSetup({ availableChannels: ['e-mail'] });
    expect(canMarkEmergency({ setup: composeSetup(), emergency: false })).toBe(true);
    expect(canMarkEmergency({ setup, emergency: false })).toBe(false);
    expect(canMarkEmergency({ setup, emergency: true })).toBe(true);
    expect(canMarkEmergency({ setup: null, emergency: false })).toBe(false);
  });

  it('rounds the share left down, never up', () => {
    expect(percentLeft({ remaining: 312, limit: 5000 })).toBe(6);
    expect(percentLeft({ remaining: 4, limit: 5000 })).toBe(0);
    expect(percentLeft({ remaining: 0, limit: 0 })).toBe(0);
  });
});
