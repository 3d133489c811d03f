// compose/start-rules.ts: which form a compose start restores, and the fingerprint of what the server has. The
// compose model test walks these through the machine; here the choices themselves, one by one.
import { describe, expect, it } from 'vitest';
import { restoredForm, savedFingerprintOf } from '../../src/machines/compose/start-rules';
import type { ComposeStart } from '../../src/services/compose/compose';
import type { ChannelCode } from '../../shared/codes';
import { composeBackup, composeDraft, composeSetup } from '../fixtures/compose';

const DRAFT_SAVED = Date.parse('2026-03-01T12:00:00.000Z');
const start = (overrides: Partial<ComposeStart> = {}): ComposeStart => ({
  setup: composeSetup(),
  draft: null,
  backup: null,
  reply: null,
  ...overrides,
});

describe('restoredForm', () => {
  it('a backup newer than the draft wins: what was typed after the last save is not lost', () => {
    const restored = restoredForm(
      start({
        draft: composeDraft(7, { title: 'Guardado' }),
        backup: composeBackup({ title: 'Escrito después', draftId: 7, savedAt: DRAFT_SAVED + 1 }),
      }),
      7,
    );
    expect(restored.form.title).toBe('Escrito después');
    expect(restored.draftId).toBe(7);
  });

  it('an older backup, or one of another draft, gives way to the draft', () => {
    const draft = composeDraft(7, { title: 'Guardado' });
    expect(
      restoredForm(start({ draft, backup: composeBackup({ title: 'Viejo', draftId: 7, savedAt: DRAFT_SAVED - 1 }) }), 7).form.title,
    ).toBe('Guardado');
    expect(
      restoredForm(start({ draft, backup: composeBackup({ title: 'Otro', draftId: 8, savedAt: DRAFT_SAVED + 1 }) }), 7).form.title,
    ).toBe('Guardado');
  });

  it('a new message allows replies; a draft and a backup keep the choice they were saved with', () => {
    // Families can answer unless the author turns it off (as ParentSquare, Remind and ClassDojo do).
    expect(restoredForm(start(), null).form.allowReplies).toBe(true);
    const list = { kind: 'recipient-list', id: 9, label: 'Delegados' } as const;
    expect(restoredForm(start({ list }), null).form).toMatchObject({ recipients: [list], allowReplies: true });
    expect(restoredForm(start({ draft: composeDraft(7, { allow_replies: false }) }), 7).form.allowReplies).toBe(false);
    expect(restoredForm(start({ draft: composeDraft(7, { allow_replies: true }) }), 7).form.allowReplies).toBe(true);
    expect(restoredForm(start({ backup: composeBackup({ allowReplies: false }) }), null).form.allowReplies).toBe(false);
  });

  it('a reply goes back by the channel the person wrote by, when it reaches them and the user may use it', () => {
    const reply = (receivedBy: ChannelCode[], channels: ChannelCode[]) => ({
      title: 'Re: Justificativo',
      pick: { kind: 'guardian', id: 3, label: 'Rosa Díaz' } as const,
      channels,
      receivedBy,
      quote: '> Hola',
    });
    const everything: ChannelCode[] = ['app-mobile', 'e-mail', 'sms', 'whatsapp'];
    const channelsOf = (r: ReturnType<typeof reply>, available: ChannelCode[] = everything) =>
      restoredForm(start({ reply: r, setup: composeSetup({ availableChannels: available }) }), null).form.channels;
    // Written in the app: answered in the app, though e-mail and the phone reach them too.
    expect(channelsOf(reply(['app-mobile'], everything))).toEqual(['app-mobile']);
    expect(channelsOf(reply(['e-mail'], everything))).toEqual(['e-mail']);
    // A colleague's message by app, e-mail and SMS: the free ones of those.
    expect(channelsOf(reply(['app-mobile', 'e-mail', 'sms'], everything))).toEqual(['app-mobile', 'e-mail']);
    // By SMS: by SMS, without the quote.
    const bySms = restoredForm(start({ reply: reply(['sms'], ['e-mail', 'sms', 'whatsapp']) }), null).form;
    expect(bySms).toMatchObject({ channels: ['sms'], content: '' });
    // The channel they used no longer reaches them, or this user may not use it: the free ones that do.
    expect(channelsOf(reply(['app-mobile'], ['e-mail', 'sms', 'whatsapp']))).toEqual(['e-mail']);
    expect(channelsOf(reply(['app-mobile'], everything), ['e-mail', 'sms'])).toEqual(['e-mail']);
    expect(channelsOf(reply([], ['app-mobile', 'e-mail', 'sms']))).toEqual(['app-mobile', 'e-mail']);
    expect(channelsOf(reply(['app-mobile'], ['sms', 'whatsapp']))).toEqual(['sms']);
  });

  it('a reply by e-mail quotes the original under a blank line; by SMS alone it starts empty', () => {
    const reply = {
      title: 'Re: Justificativo',
      pick: { kind: 'guardian', id: 3 } as never,
      channels: ['e-mail' as const],
      receivedBy: ['e-mail' as const],
      quote: '> Hola',
    };
    const byMail = restoredForm(start({ reply }), null).form;
    expect(byMail).toMatchObject({ title: 'Re: Justificativo', channels: ['e-mail'], content: '\n\n> Hola', allowReplies: true });
    const bySms = restoredForm(start({ reply: { ...reply, channels: ['sms'] } }), null).form;
    expect(bySms.content).toBe('');
  });
});

describe('savedFingerprintOf', () => {
  it('is what the server has: the backup does not change it, the draft does', () => {
    const draft = composeDraft(7);
    const withoutBackup = savedFingerprintOf(start({ draft }), 7);
    expect(
      savedFingerprintOf(start({ draft, backup: composeBackup({ title: 'Sin guardar', draftId: 7, savedAt: DRAFT_SAVED + 1 }) }), 7),
    ).toBe(withoutBackup);
    expect(savedFingerprintOf(start({ draft: composeDraft(7, { title: 'Otro título' }) }), 7)).not.toBe(withoutBackup);
  });
});
