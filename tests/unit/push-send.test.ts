// The push half of the app channel (server/push/send.ts) against a local push service that checks VAPID and
// decrypts like a browser's would (tests/fixtures/push-service.ts): what a phone is told, with which
// headers, and what each push service answer makes of the delivery and the subscription. Also the VAPID
// settings read from the environment.
import { request } from 'node:https';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { createLogger } from '../../server/log';
import { childOf, createPushSender, type PushNotice, type PushTarget } from '../../server/push/send';
import { type PushService, startPushService } from '../fixtures/push-service';

let service: PushService;
const keys = webPush.generateVAPIDKeys();
const gone: string[][] = [];
const send = () =>
  createPushSender({
    keys: async () => keys,
    subject: 'mailto:soporte@colegio.cl',
    gone: async (endpoints) => {
      gone.push(endpoints);
    },
    logger: createLogger('silent'),
    agent: service.agent,
  });

const target = (): PushTarget => {
  const s = service.subscribe();
  return { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth };
};

const notice = (targets: PushTarget[], over: Partial<PushNotice> = {}): PushNotice => ({
  deliveryId: 7,
  messageId: 42,
  title: 'Reunión de apoderados',
  school: 'Colegio San Andrés de Ñuñoa',
  studentNames: 'Ana María Pérez Soto, Tomás Pérez Soto',
  emergency: false,
  targets,
  ...over,
});

beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

describe('a push', () => {
  it('is skipped when the guardian muted every child it concerns, unless it is an emergency', async () => {
    const phone = target();
    expect(await send()(notice([phone], { muted: true }))).toBe('announced');
    expect(service.requests.get(phone.endpoint)).toBeUndefined();
    expect(await send()(notice([phone], { muted: true, emergency: true, messageId: 43 }))).toBe('announced');
    expect(service.received.filter((p) => p.endpoint === phone.endpoint).map((p) => JSON.parse(p.text).message_id)).toEqual([43]);
  });

  it('reaches the browser signed with the VAPID key and decrypts to the title, school and child, without the text', async () => {
    const phone = target();
    expect(await send()(notice([phone]))).toBe('announced');
    expect(service.refused).toEqual([]);
    const push = service.received.find((p) => p.endpoint === phone.endpoint)!;
    expect(JSON.parse(push.text)).toEqual({
      message_id: 42,
      title: 'Reunión de apoderados',
      school: 'Colegio San Andrés de Ñuñoa',
      child: 'Ana, Tomás',
      url: '/familia/mensajes/42',
      emergency: false,
    });
    expect(push.vapidKey).toBe(keys.publicKey);
    expect(push.claims.aud).toBe(service.origin);
    expect(push.claims.sub).toBe('mailto:soporte@colegio.cl');
    expect(push).toMatchObject({ ttl: String(72 * 3600), urgency: 'normal', topic: 'm42' });
  });

  it('of an emergency goes with high urgency', async () => {
    const phone = target();
    await send()(notice([phone], { emergency: true, studentNames: null }));
    const push = service.received.find((p) => p.endpoint === phone.endpoint)!;
    expect(push.urgency).toBe('high');
    expect(JSON.parse(push.text)).toMatchObject({ emergency: true, child: null });
  });
});

describe('what the push services answer', () => {
  it('with no subscription, nothing is sent and the delivery stands', async () => {
    expect(await send()(notice([]))).toBe('announced');
  });

  it('410 and 404 forget those endpoints; the phone that took it makes the delivery announced', async () => {
    const [a, b, c] = [target(), target(), target()];
    service.answer(a.endpoint, 410);
    service.answer(b.endpoint, 404);
    gone.length = 0;
    expect(await send()(notice([a, b, c]))).toBe('announced');
    expect(gone).toEqual([[a.endpoint, b.endpoint]]);
    expect(service.received.some((p) => p.endpoint === c.endpoint)).toBe(true);
  });

  it('only gone endpoints: nothing left to try later, the inbox has it', async () => {
    const a = target();
    service.answer(a.endpoint, 410);
    gone.length = 0;
    expect(await send()(notice([a]))).toBe('announced');
    expect(gone).toEqual([[a.endpoint]]);
  });

  it('429 and 5xx with no phone reached: later, and the subscriptions are kept', async () => {
    const [a, b] = [target(), target()];
    service.answer(a.endpoint, 429);
    service.answer(b.endpoint, 503);
    gone.length = 0;
    expect(await send()(notice([a, b]))).toBe('later');
    expect(gone).toEqual([]);
  });

  it('a busy service does not hold back a delivery another phone took', async () => {
    const [a, b] = [target(), target()];
    service.answer(a.endpoint, 500);
    expect(await send()(notice([a, b]))).toBe('announced');
  });

  it('a refusal (403: a subscription of other keys) is neither retried nor forgotten', async () => {
    const a = target();
    service.answer(a.endpoint, 403);
    gone.length = 0;
    expect(await send()(notice([a]))).toBe('announced');
    expect(gone).toEqual([]);
  });

  it('no answer at all (a closed port) is later', async () => {
    const a = target();
    expect(await send()(notice([{ ...a, endpoint: 'https://127.0.0.1:1/push/x' }]))).toBe('later');
  });
});

describe('the local push service', () => {
  it('refuses a push without a VAPID signature', async () => {
    const a = service.subscribe();
    const before = service.refused.length;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(a.endpoint, { method: 'POST', agent: service.agent, headers: { 'Content-Encoding': 'aes128gcm' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(Buffer.alloc(100));
    });
    expect(status).toBe(400);
    expect(service.refused.length).toBe(before + 1);
  });
});

describe('childOf', () => {
  it('keeps each student first name', () => {
    expect(childOf('Ana María Pérez Soto, Tomás Pérez Soto')).toBe('Ana, Tomás');
    expect(childOf('Benjamín Rojas')).toBe('Benjamín');
    expect(childOf(null)).toBe(null);
    expect(childOf('')).toBe(null);
  });
});

describe('VAPID settings', () => {
  const pair = webPush.generateVAPIDKeys();
  it('both keys, or neither', () => {
    expect(configFromEnv({}).vapid).toBe(null);
    expect(configFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }).vapid).toEqual(pair);
    expect(() => configFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow('VAPID_PUBLIC_KEY y VAPID_PRIVATE_KEY van juntas');
    expect(() => configFromEnv({ VAPID_PUBLIC_KEY: pair.privateKey, VAPID_PRIVATE_KEY: pair.privateKey })).toThrow('65 bytes');
    expect(() => configFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.publicKey })).toThrow('32 bytes');
  });

  it('the subject: VAPID_SUBJECT, else the mail sender', () => {
    expect(configFromEnv({ VAPID_SUBJECT: 'https://colegio.cl' }).vapidSubject).toBe('https://colegio.cl');
    expect(() => configFromEnv({ VAPID_SUBJECT: 'colegio.cl' })).toThrow('mailto: o https://');
    expect(configFromEnv({ HERMES_MAIL_FROM: 'Colegio <avisos@colegio.cl>' }).vapidSubject).toBe('mailto:avisos@colegio.cl');
    expect(configFromEnv({}).vapidSubject).toBe('mailto:no-responder@hermes.local');
  });
});
