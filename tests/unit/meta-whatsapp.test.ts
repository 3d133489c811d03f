// Meta's WhatsApp Cloud API, the parts without a server: the webhook signature against a vector computed
// apart (openssl dgst -sha256 -hmac), the settings WHATSAPP_PROVIDER=meta needs, what the Graph error codes
// mean for a delivery, and how a webhook body is read.
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { graphErrorMeaning } from '../../server/delivery/meta/errors';
import { parseMetaWebhook } from '../../server/delivery/meta/payload';
import { isValidMetaSignature, signMeta } from '../../server/delivery/meta/signature';

const BODY = '{"object":"whatsapp_business_account","entry":[]}';
/** `printf '%s' "$BODY" | openssl dgst -sha256 -hmac meta-app-secret` */
const VECTOR = 'sha256=ee9f05f989bc0aa2693d85691a477f8b8403933cde7959a1c5c6be7ea85e8d3d';

describe('X-Hub-Signature-256', () => {
  const bytes = new TextEncoder().encode(BODY);

  it('signs the raw body as the published HMAC-SHA256 of it with the app secret', () => {
    expect(signMeta(BODY, 'meta-app-secret')).toBe(VECTOR);
    expect(isValidMetaSignature(bytes, VECTOR, 'meta-app-secret')).toBe(true);
    expect(isValidMetaSignature(bytes, VECTOR.toUpperCase().replace('SHA256=', 'sha256='), 'meta-app-secret')).toBe(true);
  });

  it('refuses another secret, another body, a missing, truncated or differently named header', () => {
    expect(isValidMetaSignature(bytes, VECTOR, 'other-secret')).toBe(false);
    expect(isValidMetaSignature(new TextEncoder().encode(`${BODY} `), VECTOR, 'meta-app-secret')).toBe(false);
    expect(isValidMetaSignature(bytes, undefined, 'meta-app-secret')).toBe(false);
    expect(isValidMetaSignature(bytes, VECTOR.slice(0, -2), 'meta-app-secret')).toBe(false);
    expect(isValidMetaSignature(bytes, VECTOR.replace('sha256=', 'sha1='), 'meta-app-secret')).toBe(false);
    expect(isValidMetaSignature(bytes, VECTOR.replace('sha256=', ''), 'meta-app-secret')).toBe(false);
  });
});

describe('WHATSAPP_PROVIDER=meta settings', () => {
  const env = {
    WHATSAPP_PROVIDER: 'meta',
    META_WHATSAPP_TOKEN: 'EAAG-token',
    META_WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
    META_APP_SECRET: 'app-secret',
    META_WEBHOOK_VERIFY_TOKEN: 'verify-me',
    HERMES_PUBLIC_URL: 'https://hermes.colegio.cl/',
  };

  it('reads them, with Meta as the default Graph origin and hermes_aviso in Spanish as the template', () => {
    expect(configFromEnv(env).metaWhatsapp).toEqual({
      token: 'EAAG-token',
      phoneNumberId: '106540352242922',
      appSecret: 'app-secret',
      verifyToken: 'verify-me',
      graphUrl: 'https://graph.facebook.com',
      graphVersion: 'v24.0',
      template: 'hermes_aviso',
      templateLang: 'es',
    });
    const other = configFromEnv({
      ...env,
      META_GRAPH_URL: 'http://127.0.0.1:4790/',
      META_GRAPH_VERSION: 'v25.0',
      META_WHATSAPP_TEMPLATE: 'aviso_colegio',
      META_WHATSAPP_TEMPLATE_LANG: 'es_MX',
    }).metaWhatsapp;
    expect(other).toMatchObject({
      graphUrl: 'http://127.0.0.1:4790',
      graphVersion: 'v25.0',
      template: 'aviso_colegio',
      templateLang: 'es_MX',
    });
    // Without WHATSAPP_PROVIDER=meta the variables are not read.
    expect(configFromEnv({ ...env, WHATSAPP_PROVIDER: '' }).metaWhatsapp).toBeUndefined();
  });

  it('reads the provider name as for Twilio: a capital or a stray space is still meta, never the simulator', () => {
    for (const name of ['Meta', 'meta ', ' META']) {
      expect(configFromEnv({ ...env, WHATSAPP_PROVIDER: name }).metaWhatsapp).toMatchObject({ phoneNumberId: '106540352242922' });
    }
  });

  it('refuses to start, in Spanish, without what it needs', () => {
    const { META_WHATSAPP_TOKEN: _token, META_APP_SECRET: _secret, ...missing } = env;
    expect(() => configFromEnv(missing)).toThrow('Con WHATSAPP_PROVIDER=meta faltan: META_WHATSAPP_TOKEN, META_APP_SECRET');
    const { HERMES_PUBLIC_URL: _url, ...local } = env;
    expect(() => configFromEnv(local)).toThrow(/HERMES_PUBLIC_URL es obligatoria/);
    expect(() => configFromEnv({ ...env, WHATSAPP_PROVIDER_URL: 'https://wa.example.cl', HERMES_WEBHOOK_SECRET: 'x' })).toThrow(
      /no van juntas/,
    );
    expect(() => configFromEnv({ ...env, META_WHATSAPP_PHONE_NUMBER_ID: '+56 9 8765 4321' })).toThrow(/identificador numérico/);
    expect(() => configFromEnv({ ...env, META_GRAPH_VERSION: '24' })).toThrow(/META_GRAPH_VERSION/);
    expect(() => configFromEnv({ ...env, META_GRAPH_URL: 'graph.facebook.com' })).toThrow(/META_GRAPH_URL/);
    expect(() => configFromEnv({ ...env, META_WHATSAPP_TEMPLATE: 'Aviso Hermes' })).toThrow(/META_WHATSAPP_TEMPLATE/);
    expect(() => configFromEnv({ ...env, META_WHATSAPP_TEMPLATE_LANG: 'español' })).toThrow(/META_WHATSAPP_TEMPLATE_LANG/);
  });

  it('never puts a secret in its error messages', () => {
    for (const broken of [{ META_GRAPH_VERSION: 'x' }, { META_WHATSAPP_TEMPLATE: 'X' }, { HERMES_PUBLIC_URL: '' }]) {
      try {
        configFromEnv({ ...env, ...broken });
      } catch (err) {
        expect(String(err)).not.toMatch(/EAAG-token|app-secret|verify-me/);
      }
    }
  });
});

describe('Graph error codes', () => {
  it.each([
    [190, 401, 'transient', 'provider_auth'],
    [0, 401, 'transient', 'provider_auth'],
    [10, 403, 'transient', 'provider_auth'],
    [200, 403, 'transient', 'provider_auth'],
    [130429, 429, 'transient', 'unreachable'],
    [131048, 400, 'transient', 'unreachable'],
    [131056, 400, 'transient', 'unreachable'],
    [131000, 500, 'transient', 'unreachable'],
    [131016, 503, 'transient', 'unreachable'],
    [131042, 400, 'transient', 'provider_account'],
    [368, 403, 'transient', 'provider_account'],
    [132000, 400, 'transient', 'provider_template'],
    [132001, 404, 'transient', 'provider_template'],
    [132015, 400, 'transient', 'provider_template'],
    [131026, 400, 'permanent', 'whatsapp_undeliverable'],
    [131047, 400, 'permanent', 'whatsapp_window'],
    [131051, 400, 'permanent', 'rejected'],
    [100, 400, 'permanent', 'rejected'],
    [131021, 400, 'permanent', 'invalid_number'],
  ] as const)('%i (HTTP %i) is %s %s', (code, status, kind, error) => {
    expect(graphErrorMeaning(code, status)).toMatchObject({ kind, error });
  });

  it('falls back on the HTTP status for codes it does not know, and on "rejected" in a webhook', () => {
    expect(graphErrorMeaning(null, 500)).toMatchObject({ kind: 'transient', error: 'unreachable' });
    expect(graphErrorMeaning(999999, 429)).toMatchObject({ kind: 'transient', error: 'unreachable' });
    expect(graphErrorMeaning(null, 401)).toMatchObject({ kind: 'transient', error: 'provider_auth' });
    expect(graphErrorMeaning(999999, 400)).toMatchObject({ kind: 'permanent', error: 'rejected' });
    expect(graphErrorMeaning(999999)).toEqual({ kind: 'permanent', error: 'rejected', reception: 'error' });
    expect(graphErrorMeaning(131026)).toEqual({ kind: 'permanent', error: 'whatsapp_undeliverable', reception: 'not_received' });
  });
});

describe('reading a webhook', () => {
  const graph = { graphUrl: 'http://graph.test', graphVersion: 'v24.0', token: 't' };
  const now = new Date('2026-11-30T12:00:00Z');
  const wrap = (value: object, phoneNumberId = '106540352242922') => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1',
        changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phoneNumberId }, ...value } }],
      },
    ],
  });
  const read = (payload: unknown) => parseMetaWebhook(payload, { phoneNumberId: '106540352242922', graph, now });

  it('takes statuses with their time, echoed key and first error code', () => {
    const parsed = read(
      wrap({
        statuses: [
          {
            id: 'wamid.A',
            status: 'delivered',
            timestamp: '1764504000',
            recipient_id: '56987654321',
            biz_opaque_callback_data: 'hermes-7-0',
          },
          { id: 'wamid.B', status: 'failed', timestamp: '1764504001', errors: [{ code: 131026, title: 'Message undeliverable' }] },
          { id: 'wamid.C', status: 'deleted', timestamp: '1764504002' },
          { id: 'wamid.D', status: 'read', timestamp: 'ayer' },
        ],
      }),
    );
    expect(parsed.statuses).toEqual([
      { wamid: 'wamid.A', status: 'delivered', at: new Date(1764504000_000), callbackData: 'hermes-7-0', errorCode: null },
      { wamid: 'wamid.B', status: 'failed', at: new Date(1764504001_000), callbackData: null, errorCode: 131026 },
      { wamid: 'wamid.D', status: 'read', at: now, callbackData: null, errorCode: null },
    ]);
  });

  it('takes a family text with its phone as E.164, skips reactions and locations, and another number', () => {
    const parsed = read(
      wrap({
        messages: [
          { from: '56987654321', id: 'wamid.T', timestamp: '1764504000', type: 'text', text: { body: 'Gracias, llegó' } },
          { from: '56987654321', id: 'wamid.R', timestamp: '1764504000', type: 'reaction', reaction: { message_id: 'x', emoji: '👍' } },
          { from: '56987654321', id: 'wamid.L', timestamp: '1764504000', type: 'location', location: { latitude: 1, longitude: 2 } },
          { from: '56987654321', id: 'wamid.B', timestamp: '1764504000', type: 'button', button: { text: 'Sí, asistiré', payload: 'x' } },
        ],
      }),
    );
    expect(parsed.inbound.map(({ media: _media, ...m }) => m)).toEqual([
      {
        channel: 'whatsapp',
        from: '+56987654321',
        provider: 'meta',
        providerId: 'wamid.T',
        body: 'Gracias, llegó',
        receivedAt: new Date(1764504000_000),
      },
      {
        channel: 'whatsapp',
        from: '+56987654321',
        provider: 'meta',
        providerId: 'wamid.B',
        body: 'Sí, asistiré',
        receivedAt: new Date(1764504000_000),
      },
    ]);
    const other = read(wrap({ messages: [{ from: '56987654321', id: 'wamid.X', type: 'text', text: { body: 'x' } }] }, '999'));
    expect(other).toEqual({ statuses: [], inbound: [] });
  });

  it('drops the characters the database cannot keep from what a family wrote', () => {
    const parsed = read(
      wrap({ messages: [{ from: '56987654321', id: 'wamid.C', type: 'text', text: { body: 'Hola\u0000 ok\u0007\ud800\nchao\u0085' } }] }),
    );
    expect(parsed.inbound[0]!.body).toBe('Hola ok\nchao');
  });

  it('takes a document with its caption, file name and type, to download later', () => {
    const parsed = read(
      wrap({
        messages: [
          {
            from: '525512345678',
            id: 'wamid.D',
            timestamp: '1764504000',
            type: 'document',
            document: { id: '1234', mime_type: 'application/pdf', sha256: 'x', filename: 'autorizacion.pdf', caption: 'Firmada' },
          },
        ],
      }),
    );
    expect(parsed.inbound).toHaveLength(1);
    expect(parsed.inbound[0]).toMatchObject({ from: '+525512345678', body: 'Firmada' });
    expect(parsed.inbound[0]!.media).toEqual([
      { contentType: 'application/pdf', filename: 'autorizacion.pdf', download: expect.any(Function) },
    ]);
  });

  it('ignores what is not a WhatsApp business account webhook', () => {
    for (const payload of [null, 'x', [], { object: 'page', entry: [] }, { object: 'whatsapp_business_account', entry: 'x' }]) {
      expect(read(payload)).toEqual({ statuses: [], inbound: [] });
    }
  });
});
