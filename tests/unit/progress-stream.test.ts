// server/http/progress.ts on a bare Hono app: JSON lines only when asked, the work's status and body as the
// last line, a thrown error as the app's 500 in that line (and logged), the plain answer untouched otherwise.
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { withProgress } from '../../server/http/progress';
import type { Logger } from '../../server/log';

function appWith(fail: boolean, logger: Logger) {
  const app = new Hono();
  app.post('/work', (c) =>
    withProgress<{ done: number }>(c, logger, async (report) => {
      await report({ done: 1 });
      if (fail) throw new Error('a bug');
      await report({ done: 2 });
      return c.json({ data: 'hecho' }, 201);
    }),
  );
  return app;
}
const logger = () => ({ error: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> };
const lines = async (res: Response) =>
  (await res.text())
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);

describe('an answer with its progress', () => {
  it('is JSON lines when asked: each report, then the status and body the work answered', async () => {
    const res = await appWith(false, logger()).request('/work', { method: 'POST', headers: { Accept: 'application/x-ndjson' } });
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
      200,
      'application/x-ndjson; charset=utf-8',
      'no-store, no-transform',
    ]);
    expect(await lines(res)).toEqual([
      { progress: { done: 1 } },
      { progress: { done: 2 } },
      { answer: { status: 201, body: { data: 'hecho' } } },
    ]);
  });

  it("ends with the app's 500 when the work throws, and logs it", async () => {
    const log = logger();
    const res = await appWith(true, log).request('/work', { method: 'POST', headers: { Accept: 'application/x-ndjson' } });
    expect(await lines(res)).toEqual([
      { progress: { done: 1 } },
      { answer: { status: 500, body: { message: 'Ha ocurrido un error al realizar la solicitud.', code: 'server.error' } } },
    ]);
    expect(log.error).toHaveBeenCalledTimes(1);
  });

  it('is the plain answer when not asked', async () => {
    const res = await appWith(false, logger()).request('/work', { method: 'POST', headers: { Accept: 'application/json' } });
    expect([res.status, res.headers.get('content-type'), await res.json()]).toEqual([201, 'application/json', { data: 'hecho' }]);
  });
});
