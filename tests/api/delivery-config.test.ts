// Delivery settings read from the environment: the webhook secret is never a known value, and bad numbers
// are refused at start-up with a Spanish message.
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';

describe('delivery settings', () => {
  it('draws a random webhook secret when only the built-in simulator reports', () => {
    const a = configFromEnv({}).webhookSecret;
    const b = configFromEnv({}).webhookSecret;
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(32);
  });

  it('requires HERMES_WEBHOOK_SECRET with a real provider, and uses it', () => {
    expect(() => configFromEnv({ SMS_PROVIDER_URL: 'https://sms.example.cl' })).toThrow(/HERMES_WEBHOOK_SECRET es obligatorio/);
    expect(() => configFromEnv({ WHATSAPP_PROVIDER_URL: 'https://wa.example.cl' })).toThrow(/HERMES_WEBHOOK_SECRET/);
    const config = configFromEnv({
      SMS_PROVIDER_URL: 'https://sms.example.cl/',
      SMS_PROVIDER_TOKEN: 't',
      HERMES_WEBHOOK_SECRET: 'secreto',
    });
    expect(config.webhookSecret).toBe('secreto');
    expect(config.smsProvider).toEqual({ url: 'https://sms.example.cl', token: 't' });
    expect(config.whatsappProvider).toBeUndefined();
  });

  it('reads the simulator and retry settings, refusing values out of range', () => {
    const config = configFromEnv({
      HERMES_SIM_FAILURE_RATE: '0.25',
      HERMES_SIM_DELAY_MS: '0',
      HERMES_DELIVERY_RETRIES: '0',
      HERMES_WORKERS: '0',
    });
    expect(config).toMatchObject({ simFailureRate: 0.25, simDelayMs: 0, deliveryRetries: 0, workers: false });
    expect(() => configFromEnv({ HERMES_SIM_FAILURE_RATE: '1.5' })).toThrow(/entre 0 y 1/);
    expect(() => configFromEnv({ HERMES_DELIVERY_RETRIES: '-1' })).toThrow(/mayor o igual a 0/);
    expect(() => configFromEnv({ HERMES_DELIVERY_CONCURRENCY: '0' })).toThrow(/entero positivo/);
  });
});
