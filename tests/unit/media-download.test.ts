// A family's file is read no further than one byte past the largest attachment, through every provider's
// download, whatever Content-Length says; and a gateway's file elsewhere than its own API is fetched only
// from a public http(s) address, redirects included, and without the provider token.
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '../../shared/compose-contract';
import { isPublicHttpUrl, readMediaBody } from '../../server/delivery/media-download';
import { metaMedia } from '../../server/delivery/meta/media';
import { gatewayInboundOf } from '../../server/delivery/provider-inbound';
import { inboundOf } from '../../server/delivery/twilio/inbound';

const MB = 1024 * 1024;

/** A chunked body (no Content-Length) of `total` bytes, counting how many bytes were pulled from it. */
function endless(total: number) {
  const pulled = { bytes: 0, cancelled: false };
  let left = total;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const chunk = new Uint8Array(Math.min(MB, left));
      left -= chunk.length;
      pulled.bytes += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      pulled.cancelled = true;
    },
  });
  return { response: new Response(body, { headers: { 'Content-Type': 'image/jpeg' } }), pulled };
}

describe('reading a file', () => {
  it('keeps a small file whole', async () => {
    expect((await readMediaBody(new Response(new Uint8Array([1, 2, 3])))).length).toBe(3);
  });

  it('stops one byte past the limit on a chunked body, and lets the rest go unread', async () => {
    const { response, pulled } = endless(ATTACHMENT_MAX_BYTES + 40 * MB);
    const bytes = await readMediaBody(response);
    expect(bytes.length).toBe(ATTACHMENT_MAX_BYTES + 1);
    expect(pulled.cancelled).toBe(true);
    expect(pulled.bytes).toBeLessThan(ATTACHMENT_MAX_BYTES + 3 * MB);
  });

  it("through Twilio's, Meta's and a gateway's download alike", async () => {
    const twilio = inboundOf(
      'whatsapp',
      new URLSearchParams({ From: 'whatsapp:+56987654321', MessageSid: 'SM1', NumMedia: '1', MediaUrl0: 'https://api.twilio.com/m/1' }),
      { accountSid: `AC${'a'.repeat(32)}`, authToken: 't', apiUrl: 'https://api.twilio.com' },
      async () => endless(ATTACHMENT_MAX_BYTES + 40 * MB).response,
    )!;
    expect((await twilio.media[0]!.download()).length).toBe(ATTACHMENT_MAX_BYTES + 1);

    const meta = metaMedia(
      { graphUrl: 'https://graph.facebook.com', graphVersion: 'v24.0', token: 'x' },
      {
        id: '1',
        contentType: 'image/jpeg',
        filename: null,
      },
      async (request) =>
        request.url.includes('/v24.0/')
          ? Response.json({ url: 'https://lookaside.fbsbx.com/1' })
          : endless(ATTACHMENT_MAX_BYTES + 40 * MB).response,
    );
    expect((await meta.download()).length).toBe(ATTACHMENT_MAX_BYTES + 1);

    const parsed = gatewayInboundOf(
      'sms',
      { id: 'g1', from: '+56987654321', body: '', media: [{ url: 'https://gw.example.com/m/1', content_type: 'image/jpeg' }] },
      { url: 'https://gw.example.com', token: 'tok' },
      async () => endless(ATTACHMENT_MAX_BYTES + 40 * MB).response,
    );
    expect(parsed.ok && (await parsed.messages[0]!.media[0]!.download()).length).toBe(ATTACHMENT_MAX_BYTES + 1);
  });
});

describe("a gateway's file elsewhere", () => {
  it('is a public http(s) address, judged as URL writes it', () => {
    for (const url of ['https://almacen.example.com/f?firma=1', 'http://203.0.113.7/f', 'https://[2001:db8::1]/f']) {
      expect(isPublicHttpUrl(url), url).toBe(true);
    }
    for (const url of [
      'ftp://almacen.example.com/f',
      'file:///etc/passwd',
      'http://localhost:8080/f',
      'http://localhost./f',
      'http://127.0.0.1./f',
      'http://api.localhost/f',
      'http://127.0.0.1/f',
      'http://2130706433/f',
      'http://0x7f.1/f',
      'http://10.1.2.3/f',
      'http://172.20.0.1/f',
      'http://192.168.1.1/f',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/f',
      'http://0.0.0.0/f',
      'http://[::1]/f',
      'http://[::ffff:127.0.0.1]/f',
      'http://[fe80::1]/f',
      'http://[fd00::1]/f',
    ]) {
      expect(isPublicHttpUrl(url), url).toBe(false);
    }
  });

  const fetchOf = (urls: string[], answer: (url: string) => Response) => async (request: Request) => {
    urls.push(`${request.url} ${request.headers.get('Authorization') ?? '-'}`);
    return answer(request.url);
  };
  const download = (url: string, fetchFn: (request: Request) => Promise<Response>, own = 'http://127.0.0.1:4999') => {
    const parsed = gatewayInboundOf(
      'sms',
      { id: 'g2', from: '+56987654321', body: 'foto', media: [{ url, content_type: 'image/jpeg' }] },
      { url: own, token: 'tok' },
      fetchFn,
    );
    if (!parsed.ok) throw new Error('refused');
    return parsed.messages[0]!.media[0]!.download();
  };

  it("is fetched from the gateway's own address with its token, even a private one", async () => {
    const urls: string[] = [];
    await download(
      'http://127.0.0.1:4999/m/1',
      fetchOf(urls, () => new Response('x')),
    );
    expect(urls).toEqual(['http://127.0.0.1:4999/m/1 Bearer tok']);
  });

  it('is refused at a private address without being fetched, and after a redirect to one', async () => {
    const urls: string[] = [];
    await expect(
      download(
        'http://169.254.169.254/latest/meta-data/',
        fetchOf(urls, () => new Response('x')),
      ),
    ).rejects.toThrow(/dirección pública/);
    await expect(
      download(
        'http://127.0.0.1:5000/m/1',
        fetchOf(urls, () => new Response('x')),
      ),
    ).rejects.toThrow(/dirección pública/);
    expect(urls).toEqual([]);
    const redirecting = fetchOf(urls, (url) =>
      url.startsWith('https://almacen.example.com')
        ? new Response(null, { status: 302, headers: { Location: 'http://10.0.0.5/x' } })
        : new Response('x'),
    );
    await expect(download('https://almacen.example.com/f', redirecting)).rejects.toThrow(/dirección pública/);
    expect(urls).toEqual(['https://almacen.example.com/f -']);
  });

  it('is fetched from a public address without the token, following a public redirect', async () => {
    const urls: string[] = [];
    const redirecting = fetchOf(urls, (url) =>
      url.endsWith('/f') ? new Response(null, { status: 302, headers: { Location: '/g' } }) : new Response('abc'),
    );
    expect((await download('https://almacen.example.com/f', redirecting)).toString()).toBe('abc');
    expect(urls).toEqual(['https://almacen.example.com/f -', 'https://almacen.example.com/g -']);
  });
});
