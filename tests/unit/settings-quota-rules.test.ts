// The quota form's pure rules (src/machines/settings/quota-rules.ts): numbers as staff type them, the
// contract's bounds, and a PATCH body of only what changed.
import { describe, expect, it } from 'vitest';
import { ALERT_PERCENT_MAX, RESERVE_PERCENT_MAX, SMS_LIMIT_MAX, type QuotaSettings } from '../../shared/quota-contract';
import {
  draftOf,
  firstQuotaError,
  hasQuotaChanges,
  isQuotaValidationFailure,
  parseWhole,
  quotaErrors,
  quotaInputOf,
  serverQuotaErrors,
} from '../../src/machines/settings/quota-rules';

const settings: QuotaSettings = {
  month: '2026-11',
  timezone: 'America/Santiago',
  sms: { limit: 5000, used: 1234, remaining: 3766, reserved: 500, reserve_percent: 10, alert_percent: 10, low: false, runs_out_on: null },
  email: { remaining: null },
  whatsapp: { remaining: null },
};

describe('parseWhole', () => {
  it('reads whole numbers with Chilean or Mexican thousands, blanks and a trailing %', () => {
    expect(parseWhole('5000')).toBe(5000);
    expect(parseWhole(' 5.000 ')).toBe(5000);
    expect(parseWhole('5,000')).toBe(5000);
    expect(parseWhole('1 250 000')).toBe(1_250_000);
    expect(parseWhole('20 %')).toBe(20);
    expect(parseWhole('0')).toBe(0);
  });

  it('refuses decimals, signs, misplaced separators and words', () => {
    for (const text of ['', '1,5', '2.50', '-3', '+3', '1.0000', 'diez', '5e3', '99999999999999999999'])
      expect(parseWhole(text)).toBeNull();
  });
});

describe('quotaErrors', () => {
  it('accepts the settings as they are', () => {
    expect(quotaErrors(draftOf(settings), settings)).toEqual({});
  });

  it('answers each bound with its key and figures, and the limit below this month’s use with the figure', () => {
    const errors = quotaErrors({ sms_monthly_limit: '1000', reserve_percent: '51', alert_percent: '0' }, settings);
    expect(errors).toEqual({
      sms_monthly_limit: { key: 'quota.errors.belowUsed', params: { used: 1234 } },
      reserve_percent: { key: 'quota.errors.reserve', params: { max: RESERVE_PERCENT_MAX } },
      alert_percent: { key: 'quota.errors.alert', params: { min: 1, max: ALERT_PERCENT_MAX } },
    });
    expect(firstQuotaError(errors)).toBe('sms_monthly_limit');
    expect(quotaErrors({ ...draftOf(settings), sms_monthly_limit: String(SMS_LIMIT_MAX + 1) }, settings).sms_monthly_limit?.key).toBe(
      'quota.errors.limit',
    );
    expect(firstQuotaError(quotaErrors({ ...draftOf(settings), alert_percent: 'x' }, settings))).toBe('alert_percent');
  });

  it('an empty alert is no alert, not an error', () => {
    expect(quotaErrors({ ...draftOf(settings), alert_percent: ' ' }, settings)).toEqual({});
  });
});

describe('quotaInputOf', () => {
  it('sends only what changed, and null to switch the alert off', () => {
    expect(quotaInputOf(draftOf(settings), settings)).toEqual({});
    expect(hasQuotaChanges(draftOf(settings), settings)).toBe(false);
    expect(quotaInputOf({ sms_monthly_limit: '6.000', reserve_percent: '10 %', alert_percent: '' }, settings)).toEqual({
      sms_monthly_limit: 6000,
      alert_percent: null,
    });
    expect(hasQuotaChanges({ ...draftOf(settings), reserve_percent: '15' }, settings)).toBe(true);
  });
});

describe('a 422 from the server', () => {
  it('lands on the fields it names, with the server’s text', () => {
    const failure = {
      status: 422,
      code: 'validation.failed',
      message: '',
      fieldErrors: { sms_monthly_limit: ['Este mes ya se usaron 1.234 SMS; el límite no puede ser menor.'] },
    };
    expect(isQuotaValidationFailure(failure)).toBe(true);
    expect(serverQuotaErrors(failure)).toEqual({
      sms_monthly_limit: {
        key: 'quota.errors.server',
        params: { message: 'Este mes ya se usaron 1.234 SMS; el límite no puede ser menor.' },
      },
    });
    expect(isQuotaValidationFailure({ ...failure, fieldErrors: { title: ['x'] } })).toBe(false);
    expect(isQuotaValidationFailure({ ...failure, status: 500 })).toBe(false);
  });
});
