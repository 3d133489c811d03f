import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { is } from 'superstruct';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import {
  estimate as estimateCall,
  replyStartOf,
  fetchComposeSetup,
  newIdempotencyKey,
  sendDraftById,
  sendMessage,
} from '../../src/services/compose/compose';
import {
  BACKUP_VERSION,
  clearComposeBackup,
  clearDraftBackups,
  loadComposeBackup,
  saveComposeBackup,
} from '../../src/services/compose/backup';
import { utcToZoned, zonedToUtc } from '../../shared/zoned-time';
import { ComposeDraftStruct, EstimateStruct, RecipientPickStruct, RecipientsStruct } from '../../shared/compose-structs';
import { http } from '../../src/services/http/client';
import {
  channelList,
  channelPermissions,
  composeBackup,
  composeDraft,
  composeInput,
  estimate,
  quota,
  sendResult,
  signature,
} from '../fixtures/compose';
import { attachmentSummary, messageDetail } from '../fixtures/messages';
import { translate } from '../fixtures/texts';
import { loadTexts } from '../../src/i18n';
import { CONTENT_MAX_LENGTH, TITLE_MAX_LENGTH } from '../../shared/compose-contract';
import type { PersonKind } from '../../shared/codes';

const run = <T>(logic: AnyActorLogic, input?: unknown) => toPromise(createActor(logic, { input }).start()) as Promise<T>;

describe('zonedToUtc', () => {
  it('converts Santiago wall clock across its DST changes', () => {
    // Winter (-04) and summer (-03).
    expect(zonedToUtc('2026-07-15', '09:00', 'America/Santiago')).toBe('2026-07-15T13:00:00.000Z');
    expect(zonedToUtc('2026-01-15', '09:00', 'America/Santiago')).toBe('2026-01-15T12:00:00.000Z');
    // Fall back (2026-04-05 00:00 → 04-04 23:00): the repeated 23:30 takes its first occurrence.
    expect(zonedToUtc('2026-04-04', '23:30', 'America/Santiago')).toBe('2026-04-05T02:30:00.000Z');
    expect(zonedToUtc('2026-04-05', '00:30', 'America/Santiago')).toBe('2026-04-05T04:30:00.000Z');
    // Spring forward (2026-09-06 00:00 → 01:00): the skipped 00:30 moves forward to 01:30.
    expect(zonedToUtc('2026-09-06', '00:30', 'America/Santiago')).toBe('2026-09-06T04:30:00.000Z');
    expect(zonedToUtc('2026-09-06', '01:30', 'America/Santiago')).toBe('2026-09-06T04:30:00.000Z');
    expect(zonedToUtc('2026-09-05', '23:30', 'America/Santiago')).toBe('2026-09-06T03:30:00.000Z');
  });

  it('converts Mexico City, with DST before 2023 and without it since', () => {
    expect(zonedToUtc('2026-07-01', '10:00', 'America/Mexico_City')).toBe('2026-07-01T16:00:00.000Z');
    expect(zonedToUtc('2021-07-01', '10:00', 'America/Mexico_City')).toBe('2021-07-01T15:00:00.000Z');
    expect(zonedToUtc('2021-04-04', '02:30', 'America/Mexico_City')).toBe('2021-04-04T08:30:00.000Z');
    expect(zonedToUtc('2021-10-31', '01:30', 'America/Mexico_City')).toBe('2021-10-31T06:30:00.000Z');
  });

  it('refuses malformed dates, times and zones', () => {
    expect(zonedToUtc('2026-02-30', '10:00', 'America/Santiago')).toBeNull();
    expect(zonedToUtc('2026-01-01', '24:00', 'America/Santiago')).toBeNull();
    expect(zonedToUtc('1/1/2026', '10:00', 'America/Santiago')).toBeNull();
    expect(zonedToUtc('2026-01-01', '10:00', 'Nowhere/City')).toBeNull();
  });

  it('reads an instant back on the wall clock', () => {
    expect(utcToZoned('2026-04-05T02:30:00.000Z', 'America/Santiago')).toEqual({ date: '2026-04-04', time: '23:30' });
    expect(utcToZoned('2026-07-01T16:00:00.000Z', 'America/Mexico_City')).toEqual({ date: '2026-07-01', time: '10:00' });
    expect(utcToZoned('nonsense', 'America/Mexico_City')).toBeNull();
  });
});

describe('compose backup', () => {
  const KEY = 'compose:7:new';
  // Every field filled in, so the round trip carries each one.
  const backup = composeBackup({
    channels: ['e-mail', 'sms'],
    recipients: [{ kind: 'course', id: 3, audience: 'titulares', label: '3° Básico A' }],
    attachments: [attachmentSummary(9)],
    allowReplies: true,
    schedule: { date: '2026-05-01', time: '08:00' },
  });
  beforeEach(() => localStorage.clear());

  it('round-trips, versioned, and clears', () => {
    expect(loadComposeBackup(KEY)).toBeNull();
    saveComposeBackup(KEY, backup);
    expect(JSON.parse(localStorage.getItem(`hermes.compose.${KEY}`) ?? 'null')).toEqual({ v: BACKUP_VERSION, value: backup });
    expect(loadComposeBackup(KEY)).toEqual(backup);
    expect(loadComposeBackup('compose:7:draft-1')).toBeNull();
    clearComposeBackup(KEY);
    expect(loadComposeBackup(KEY)).toBeNull();
  });

  it('drops every backup of a draft once it is sent, and only those', () => {
    saveComposeBackup('compose:7:new', { ...backup, draftId: 12 });
    saveComposeBackup('compose:7:12', { ...backup, draftId: 12 });
    saveComposeBackup('compose:7:13', { ...backup, draftId: 13 });
    localStorage.setItem('other-app', JSON.stringify({ draftId: 12 }));
    clearDraftBackups(12);
    expect(loadComposeBackup('compose:7:new')).toBeNull();
    expect(loadComposeBackup('compose:7:12')).toBeNull();
    expect(loadComposeBackup('compose:7:13')?.draftId).toBe(13);
    expect(localStorage.getItem('other-app')).not.toBeNull();
  });

  it('ignores corrupt values and other versions', () => {
    localStorage.setItem(`hermes.compose.${KEY}`, '{not json');
    expect(loadComposeBackup(KEY)).toBeNull();
    localStorage.setItem(`hermes.compose.${KEY}`, JSON.stringify({ v: BACKUP_VERSION + 1, value: backup }));
    expect(loadComposeBackup(KEY)).toBeNull();
    localStorage.setItem(`hermes.compose.${KEY}`, JSON.stringify({ v: BACKUP_VERSION, value: { ...backup, channels: ['fax'] } }));
    expect(loadComposeBackup(KEY)).toBeNull();
    localStorage.setItem(`hermes.compose.${KEY}`, JSON.stringify({ v: BACKUP_VERSION, value: { ...backup, title: 3 } }));
    expect(loadComposeBackup(KEY)).toBeNull();
  });
});

describe('compose structs', () => {
  it('accepts the contract shapes and refuses wrong ones', () => {
    expect(is({ kind: 'course', id: 1, audience: 'titulares' }, RecipientPickStruct)).toBe(true);
    expect(is({ kind: 'guardian', id: 1, label: 'Ana' }, RecipientPickStruct)).toBe(true);
    expect(is({ kind: 'course', id: 1 }, RecipientPickStruct)).toBe(false);
    expect(is({ kind: 'course', id: 1, audience: 'todos' }, RecipientPickStruct)).toBe(false);
    const draft = composeDraft(1, { title: '', content: '', channels: ['sms'] });
    expect(is(draft, ComposeDraftStruct)).toBe(true);
    expect(is({ ...draft, channels: ['telegram'] }, ComposeDraftStruct)).toBe(false);
    const estimated = estimate(3, {
      channels: [{ code: 'sms', deliveries: 3, missing_address: 1, opted_out: 0, blocked: 0 }],
      sms: { segments_per_message: 1, total: 2, remaining: 10, limit: 100, reserved: 0, month: '2026-03' },
      email: null,
      problems: ['sms.quota_exceeded'],
    });
    expect(is(estimated, EstimateStruct)).toBe(true);
    expect(is({ ...estimated, problems: ['quota'] }, EstimateStruct)).toBe(false);
    expect(is({ courses: [], appointments: [], levels: [] }, RecipientsStruct)).toBe(true);
    expect(
      is(
        {
          courses: [
            {
              id: 1,
              nombre: 'A',
              grupo_type: 'curso',
              level_id: 1,
              estudiantes: [],
              apoderados: [{ id: 1, student_id: 1, rol_adulto_id: 3 }],
            },
          ],
          appointments: [],
          levels: [],
        },
        RecipientsStruct,
      ),
    ).toBe(false);
  });
});

describe('compose calls', () => {
  afterEach(() => vi.restoreAllMocks());

  it('offers channels enabled by the institution AND permitted, and the active signature', async () => {
    const answers: Record<string, unknown> = {
      // SMS is off at the school, WhatsApp not permitted to this user.
      '/channels': { data: channelList(['sms']) },
      // Listed out of order: a permission belongs to its channel by id.
      '/communication-permission/user': {
        data: { institution_channel_permissions: channelPermissions(['whatsapp']).institution_channel_permissions.reverse() },
      },
      '/institutions-signatures': { data: [signature()] },
      '/quota': { data: quota(100, 3) },
    };
    vi.spyOn(http, 'request').mockImplementation(async (path) => answers[path]);
    const setup = await run<{ availableChannels: string[]; signature: { signature: string } | null }>(fetchComposeSetup);
    expect(setup.availableChannels).toEqual(['app-mobile', 'e-mail']);
    expect(setup.signature?.signature).toBe('CSA');
  });

  it('fails when a body does not match its struct', async () => {
    vi.spyOn(http, 'request').mockResolvedValue({ data: [{ id: 1, code: 'fax', enabled_by_institution: true }] });
    await expect(run(fetchComposeSetup)).rejects.toMatchObject({ code: 'response.invalid' });
  });

  it('sends with the Idempotency-Key header, the draft and the reply', async () => {
    const spy = vi.spyOn(http, 'request').mockResolvedValue({ data: sendResult(5) });
    const input = composeInput();
    const result = await run<{ id: number }>(sendMessage, { input, draftId: 4, replyToId: null, idempotencyKey: 'key-12345678' });
    expect(result.id).toBe(5);
    expect(spy).toHaveBeenCalledWith(
      '/messages/send',
      expect.objectContaining({ method: 'POST', headers: { 'Idempotency-Key': 'key-12345678' }, body: { ...input, draft_id: 4 } }),
    );
  });

  it('asks the estimate for the draft being sent and the message answered, as send does', async () => {
    const spy = vi.spyOn(http, 'request').mockResolvedValue({ data: estimate(3) });
    const input = composeInput({ attachment_ids: [2] });
    await run(estimateCall, { input, draftId: 4, replyToId: 6 });
    expect(spy).toHaveBeenCalledWith(
      '/messages/estimate',
      expect.objectContaining({ method: 'POST', body: { ...input, draft_id: 4, reply_to_id: 6 } }),
    );
    await run(estimateCall, { input, draftId: null, replyToId: null });
    expect(spy.mock.calls[1]?.[1]?.body).toEqual(input);
  });

  it('sends a saved draft by id with a fresh key', async () => {
    const draft = composeDraft(8, { recipients: [{ kind: 'staff', id: 3 }], attachments: [attachmentSummary(2)], reply_to_id: 6 });
    const spy = vi
      .spyOn(http, 'request')
      .mockImplementation(async (path) => (path === '/messages/drafts/8' ? { data: draft } : { data: sendResult(8) }));
    await run(sendDraftById, { id: 8 });
    const [, options] = spy.mock.calls[1] ?? [];
    expect(options?.body).toMatchObject({ draft_id: 8, reply_to_id: 6, attachment_ids: [2], scheduled_at: null });
    expect(options?.headers?.['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('makes distinct idempotency keys the server accepts (8–100 characters)', () => {
    const a = newIdempotencyKey();
    expect(a.length).toBeGreaterThanOrEqual(8);
    expect(a.length).toBeLessThanOrEqual(100);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe('replyStartOf', () => {
  beforeAll(() => loadTexts(['messages']));
  const message = (kind: PersonKind, title = 'Reunión', content = 'Tomás faltó por fiebre.\n\nSaludos.') =>
    messageDetail({
      title,
      content,
      date: '2026-03-12T13:15:00.000Z',
      timezone: 'America/Santiago',
      sender: { id: 4, name: 'Ana Pérez', kind },
      channels: ['e-mail'],
      reply_channels: ['e-mail', 'sms'],
    });
  const header = translate('es-CL', 'messages.replyQuote', { date: '12-03-2026', time: '10:15', name: 'Ana Pérez' });

  it('answers the sender with "Re: <title>", on the channels that reach them, quoting the original', () => {
    expect(replyStartOf(message('funcionario'))).toEqual({
      title: 'Re: Reunión',
      pick: { kind: 'staff', id: 4, label: 'Ana Pérez' },
      channels: ['e-mail', 'sms'],
      // What the message came by, which the reply prefers.
      receivedBy: ['e-mail'],
      // Said when (the school's clock) and who, then every line of it quoted, blank ones too.
      quote: `${header}\n> Tomás faltó por fiebre.\n>\n> Saludos.`,
    });
    expect(replyStartOf(message('apoderado')).pick).toEqual({ kind: 'guardian', id: 4, label: 'Ana Pérez' });
    expect(replyStartOf(message('estudiante')).pick).toEqual({ kind: 'student', id: 4, audience: 'estudiantes', label: 'Ana Pérez' });
  });

  it('does not stack "Re: Re:" and keeps the title within its limit', () => {
    expect(replyStartOf(message('apoderado', 'RE: Hola')).title).toBe('RE: Hola');
    expect(replyStartOf(message('apoderado', 'Re: Re: Hola')).title).toBe('Re: Re: Hola');
    expect(replyStartOf(message('apoderado', 'x'.repeat(TITLE_MAX_LENGTH))).title).toHaveLength(TITLE_MAX_LENGTH);
  });

  it('quotes a long original cut short, so the answer still fits the content limit', () => {
    const { quote } = replyStartOf(message('apoderado', 'Reunión', 'a'.repeat(CONTENT_MAX_LENGTH)));
    expect(quote.length).toBeLessThan(CONTENT_MAX_LENGTH / 4);
    expect(quote.endsWith('…')).toBe(true);
  });
});
