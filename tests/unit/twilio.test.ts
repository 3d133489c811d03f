// Twilio's pieces that need no server: the webhook signature against the example Twilio publishes, the
// settings read from the environment, the error codes, and the incoming message's parse.
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { errorOfAnswer, errorOfCallback, TWILIO_ERRORS } from '../../server/delivery/twilio/errors';
import chile from '../../src/i18n/reception/es-CL.json';
import mexico from '../../src/i18n/reception/es-MX.json';
import { inboundOf } from '../../server/delivery/twilio/inbound';
import { isTwilioSigned, twilioSignature } from '../../server/delivery/twilio/signature';

describe('X-Twilio-Signature', () => {
  // The worked example of Twilio's "Webhooks security" guide (auth token 12345).
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
  const PUBLISHED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

  it("matches Twilio's published example", () => {
    expect(twilioSignature('12345', url, params)).toBe(PUBLISHED);
    // Parameter order on the wire does not matter: they are signed sorted by name.
    const shuffled = Object.entries(params).reverse();
    expect(twilioSignature('12345', url, shuffled)).toBe(PUBLISHED);
    expect(isTwilioSigned('12345', PUBLISHED, url, new URLSearchParams(shuffled))).toBe(true);
  });

  it('matches the examples of the older guide too', () => {
    const older = (phone: string) => ({ ...params, Caller: phone, From: phone });
    expect(twilioSignature('12345', url, older('+14158675310'))).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
    expect(twilioSignature('12345', url, older('+14158675309'))).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('refuses a changed parameter, URL, token, or a missing or malformed header', () => {
    expect(isTwilioSigned('12345', PUBLISHED, url, { ...params, Digits: '9999' })).toBe(false);
    expect(isTwilioSigned('12345', PUBLISHED, url, { ...params, Extra: '' })).toBe(false);
    expect(isTwilioSigned('12345', PUBLISHED, 'https://mycompany.com/myapp.php?foo=1&bar=3', params)).toBe(false);
    expect(isTwilioSigned('54321', PUBLISHED, url, params)).toBe(false);
    expect(isTwilioSigned('12345', undefined, url, params)).toBe(false);
    expect(isTwilioSigned('12345', '', url, params)).toBe(false);
    expect(isTwilioSigned('12345', PUBLISHED.slice(0, -2), url, params)).toBe(false);
    expect(isTwilioSigned('12345', 'no es base64 !!', url, params)).toBe(false);
  });

  it("accepts the URL with or without its default port, as Twilio's libraries do", () => {
    const withPort = twilioSignature('12345', 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params);
    expect(isTwilioSigned('12345', withPort, url, params)).toBe(true);
    expect(isTwilioSigned('12345', PUBLISHED, 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params)).toBe(true);
    // Another port is another URL.
    const other = twilioSignature('12345', 'https://mycompany.com:8443/myapp.php?foo=1&bar=2', params);
    expect(isTwilioSigned('12345', other, url, params)).toBe(false);
  });

  it('signs every value of a repeated name', () => {
    const a = twilioSignature('12345', url, [
      ['A', '1'],
      ['A', '2'],
    ]);
    expect(a).toBe(
      twilioSignature('12345', url, [
        ['A', '2'],
        ['A', '1'],
      ]),
    );
    expect(a).not.toBe(twilioSignature('12345', url, [['A', '1']]));
  });
});

describe('Twilio settings', () => {
  const SID = `AC${'a'.repeat(32)}`;
  const base = { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 'secreto', HERMES_PUBLIC_URL: 'https://hermes.colegio.cl/' };

  it('leaves SMS and WhatsApp to the simulator or the JSON provider unless Twilio is chosen', () => {
    expect(configFromEnv({ ...base }).twilio).toBeUndefined();
    const own = configFromEnv({ SMS_PROVIDER_URL: 'https://gw.example.cl', HERMES_WEBHOOK_SECRET: 's' });
    expect(own.twilio).toBeUndefined();
    expect(own.smsProvider).toBeDefined();
  });

  it('reads SMS from a number or a Messaging Service, and WhatsApp from its sender', () => {
    expect(configFromEnv({ ...base, SMS_PROVIDER: 'twilio', TWILIO_SMS_FROM: '+56229990000' }).twilio).toEqual({
      accountSid: SID,
      authToken: 'secreto',
      apiUrl: 'https://api.twilio.com',
      sms: { from: '+56229990000' },
    });
    const service = `MG${'b'.repeat(32)}`;
    const both = configFromEnv({
      ...base,
      SMS_PROVIDER: 'Twilio',
      WHATSAPP_PROVIDER: 'twilio',
      TWILIO_MESSAGING_SERVICE_SID: service,
      TWILIO_WHATSAPP_FROM: 'whatsapp:+14155238886',
      TWILIO_API_URL: 'http://127.0.0.1:9999/',
    }).twilio;
    expect(both).toEqual({
      accountSid: SID,
      authToken: 'secreto',
      apiUrl: 'http://127.0.0.1:9999',
      sms: { messagingServiceSid: service },
      whatsapp: { from: '+14155238886', contentSid: null },
    });
    const template = `HX${'d'.repeat(32)}`;
    expect(
      configFromEnv({ ...base, WHATSAPP_PROVIDER: 'twilio', TWILIO_WHATSAPP_FROM: '+14155238886', TWILIO_WHATSAPP_CONTENT_SID: template })
        .twilio?.whatsapp,
    ).toEqual({ from: '+14155238886', contentSid: template });
    // Only WhatsApp through Twilio: SMS stays with the simulator.
    expect(configFromEnv({ ...base, WHATSAPP_PROVIDER: 'twilio', TWILIO_WHATSAPP_FROM: '+14155238886' }).twilio?.sms).toBeUndefined();
  });

  it('refuses missing and contradictory settings in Spanish, without showing the token', () => {
    const sms = { ...base, SMS_PROVIDER: 'twilio', TWILIO_SMS_FROM: '+56229990000' };
    expect(() => configFromEnv({ ...sms, TWILIO_ACCOUNT_SID: '' })).toThrow(/falta TWILIO_ACCOUNT_SID/);
    expect(() => configFromEnv({ ...sms, TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(/TWILIO_ACCOUNT_SID debe empezar por AC/);
    expect(() => configFromEnv({ ...sms, TWILIO_AUTH_TOKEN: '' })).toThrow(/falta TWILIO_AUTH_TOKEN/);
    expect(() => configFromEnv({ ...sms, HERMES_PUBLIC_URL: '' })).toThrow(/HERMES_PUBLIC_URL es obligatorio/);
    expect(() => configFromEnv({ ...sms, TWILIO_SMS_FROM: '' })).toThrow(/falta TWILIO_SMS_FROM o TWILIO_MESSAGING_SERVICE_SID/);
    expect(() => configFromEnv({ ...sms, TWILIO_MESSAGING_SERVICE_SID: `MG${'b'.repeat(32)}` })).toThrow(/se contradicen/);
    expect(() => configFromEnv({ ...sms, SMS_PROVIDER_URL: 'https://gw.example.cl' })).toThrow(
      /SMS_PROVIDER=twilio y SMS_PROVIDER_URL se contradicen/,
    );
    expect(() => configFromEnv({ ...base, SMS_PROVIDER: 'twilo' })).toThrow(/SMS_PROVIDER debe ser uno de: twilio/);
    expect(() => configFromEnv({ ...base, WHATSAPP_PROVIDER: 'twilio' })).toThrow(/falta TWILIO_WHATSAPP_FROM/);
    expect(() => configFromEnv({ ...base, WHATSAPP_PROVIDER: 'twilio', TWILIO_WHATSAPP_FROM: '14155238886' })).toThrow(
      /formato internacional/,
    );
    for (const env of [
      { ...sms, TWILIO_ACCOUNT_SID: 'AC123' },
      { ...sms, TWILIO_SMS_FROM: '' },
    ]) {
      try {
        configFromEnv(env);
      } catch (err) {
        expect(String(err)).not.toContain('secreto');
      }
    }
  });
});

describe('Twilio error codes', () => {
  it('tells a bad number, a refusal and our own faults apart', () => {
    expect(errorOfAnswer(400, 21211)).toEqual({ kind: 'permanent', error: 'invalid_number' });
    expect(errorOfAnswer(400, 21614)).toEqual({ kind: 'permanent', error: 'not_mobile' });
    expect(errorOfAnswer(400, 21610)).toEqual({ kind: 'permanent', error: 'unsubscribed' });
    expect(errorOfAnswer(400, 21606)).toEqual({ kind: 'transient', error: 'provider_config' });
    expect(errorOfAnswer(401, 20003)).toEqual({ kind: 'transient', error: 'provider_auth' });
    expect(errorOfAnswer(401, undefined)).toEqual({ kind: 'transient', error: 'provider_auth' });
    expect(errorOfAnswer(429, 20429)).toEqual({ kind: 'transient', error: 'unreachable' });
    expect(errorOfAnswer(503, null)).toEqual({ kind: 'transient', error: 'unreachable' });
    expect(errorOfAnswer(400, 99999)).toEqual({ kind: 'permanent', error: 'rejected' });
  });

  it('has a Spanish reason on the reception screen for every code it records', () => {
    const codes = new Set([...Object.values(TWILIO_ERRORS).map((e) => e.error), 'rejected', 'undelivered', 'unreachable']);
    for (const locale of [chile, mexico]) {
      const reasons = (locale as { reception: { errorCode: Record<string, string> } }).reception.errorCode;
      for (const code of codes) expect(reasons[code], code).toEqual(expect.any(String));
    }
  });

  it("names a callback's ErrorCode, else the status's own error", () => {
    expect(errorOfCallback('30003', 'undelivered')).toBe('handset_unreachable');
    expect(errorOfCallback('30006', 'undelivered')).toBe('not_mobile');
    expect(errorOfCallback('30007', 'undelivered')).toBe('filtered');
    expect(errorOfCallback('63016', 'rejected')).toBe('whatsapp_window');
    expect(errorOfCallback(null, 'undelivered')).toBe('undelivered');
    expect(errorOfCallback('12345678', 'rejected')).toBe('rejected');
  });
});

describe('an incoming Twilio message', () => {
  const settings = { accountSid: `AC${'a'.repeat(32)}`, authToken: 't', apiUrl: 'https://api.twilio.com' };

  it('becomes an InboundMessage without the whatsapp: prefix, its media fetched with our credentials', async () => {
    const seen: Request[] = [];
    const params = new URLSearchParams({
      From: 'whatsapp:+56987654321',
      Body: 'Firmada la autorización',
      MessageSid: 'MM0123',
      NumMedia: '2',
      MediaUrl0: 'https://api.twilio.com/2010-04-01/Accounts/AC/Messages/MM0123/Media/ME1',
      MediaContentType0: 'image/jpeg',
      MediaUrl1: 'https://elsewhere.example/ME2',
      MediaContentType1: 'application/pdf',
    });
    const message = inboundOf('whatsapp', params, settings, async (request) => {
      seen.push(request);
      return new Response(new Uint8Array([1, 2, 3]));
    });
    expect(message).toMatchObject({
      channel: 'whatsapp',
      from: '+56987654321',
      provider: 'twilio',
      providerId: 'MM0123',
      body: 'Firmada la autorización',
    });
    expect(message?.media.map((m) => [m.contentType, m.filename])).toEqual([
      ['image/jpeg', null],
      ['application/pdf', null],
    ]);
    expect([...(await message!.media[0]!.download())]).toEqual([1, 2, 3]);
    await message!.media[1]!.download();
    expect(seen[0]!.headers.get('Authorization')).toBe(`Basic ${Buffer.from(`${settings.accountSid}:t`).toString('base64')}`);
    // Not Twilio's host: our credentials stay home.
    expect(seen[1]!.headers.get('Authorization')).toBeNull();
  });

  it('drops from the text what the database cannot keep, instead of refusing the message', () => {
    const params = new URLSearchParams({ From: '+56987654321', MessageSid: 'SM1', Body: 'Hola\u0000 profe\u0007\nsaludos 👍' });
    expect(inboundOf('sms', params, settings)?.body).toBe('Hola profe\nsaludos 👍');
  });

  it('is refused without a sender or an id', () => {
    expect(inboundOf('sms', new URLSearchParams({ Body: 'hola', MessageSid: 'SM1' }), settings)).toBeNull();
    expect(inboundOf('sms', new URLSearchParams({ From: '+56987654321', Body: 'hola' }), settings)).toBeNull();
  });
});
