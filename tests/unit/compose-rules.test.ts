import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/machines/compose/edit-rules';
import { EMPTY_FORM, firstInvalidField, type ComposeErrors, type ComposeForm } from '../../src/machines/compose/rules';
import { composeSetup } from '../fixtures/compose';

// E-mail first: the first channel is where a missing channel puts focus.
const SETUP = composeSetup({ availableChannels: ['e-mail', 'sms'] });
const FORM: ComposeForm & { errors: ComposeErrors } = { ...EMPTY_FORM, setup: SETUP, draftId: null, attachments: [], errors: {} };

describe('applyEdit', () => {
  it('drops the edited field error and the quota error, the estimate and the key', () => {
    const errors: ComposeErrors = {
      title: { key: 'compose.errors.titleRequired' },
      content: { key: 'compose.errors.contentRequired' },
      quota: { key: 'compose.errors.smsInsufficient' },
    };
    expect(applyEdit({ ...FORM, errors }, { type: 'compose.change', field: 'title', value: 'Hola' })).toEqual({
      title: 'Hola',
      errors: { content: { key: 'compose.errors.contentRequired' } },
      estimate: null,
      idempotencyKey: null,
    });
  });

  it('keeps channels in the contract order, and only those offered', () => {
    const sms = applyEdit(FORM, { type: 'compose.toggleChannel', code: 'sms' });
    expect(applyEdit({ ...FORM, channels: sms.channels ?? [] }, { type: 'compose.toggleChannel', code: 'e-mail' }).channels).toEqual([
      'e-mail',
      'sms',
    ]);
  });

  it('takes a date and time as the schedule, and both emptied as none', () => {
    expect(applyEdit(FORM, { type: 'compose.setSchedule', date: '2030-01-01', time: '' }).schedule).toEqual({
      date: '2030-01-01',
      time: '',
    });
    expect(
      applyEdit({ ...FORM, schedule: { date: '2030-01-01', time: '10:00' } }, { type: 'compose.setSchedule', date: '', time: '' }).schedule,
    ).toBeNull();
  });
});

describe('firstInvalidField', () => {
  it('names the first field with an error in the order the form shows them', () => {
    expect(firstInvalidField(FORM, {})).toBeNull();
    expect(
      firstInvalidField(FORM, { schedule: { key: 'compose.errors.scheduleRequired' }, content: { key: 'compose.errors.contentRequired' } }),
    ).toBe('compose-content');
    expect(firstInvalidField(FORM, { channels: { key: 'compose.errors.channelsRequired' } })).toBe('compose-channel-e-mail');
    expect(
      firstInvalidField({ setup: { ...SETUP, availableChannels: [] } }, { channels: { key: 'compose.errors.channelsRequired' } }),
    ).toBeNull();
    // The quota has no control of its own: nothing to focus.
    expect(firstInvalidField(FORM, { quota: { key: 'compose.errors.smsInsufficient' } })).toBeNull();
  });
});
